"""The field types of the API's request bodies, strict but true to JSON.

>>> from pydantic import TypeAdapter
>>> TypeAdapter(Integer).validate_python(231268.0), TypeAdapter(Integer).validate_python(7)
(231268, 7)
>>> for value in (1.5, True, "1"):
...     try:
...         TypeAdapter(Integer).validate_python(value)
...     except ValueError as error:
...         print(error.errors()[0]["type"])
int_type
int_type
int_type
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BeforeValidator, StrictInt


def _integral(value: Any) -> Any:
    """A float with no fractional part is the integer it equals (``231268.0`` is ``231268``); anything else as is."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


Integer = Annotated[StrictInt, BeforeValidator(_integral)]
"""A JSON integer: a number with no fractional part, however written (``7``, ``7.0``, ``7e0``) — what JSON Schema's
``"integer"`` means, so that the OpenAPI document and the server agree. ``true``, ``"7"`` and ``7.5`` are refused."""
