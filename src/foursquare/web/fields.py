"""The field types of the API's request bodies, strict but true to JSON.

A JSON integer is a number with no fractional part, however written (``7``, ``7.0``, ``7e0``): that is what
JSON Schema's ``"integer"`` means, so the server accepts what the OpenAPI document says is valid. ``true``,
``"7"`` and ``7.5`` are refused. Constraints go before :data:`WHOLE`, so that the document shows them
(``minimum``, not pydantic's ``ge``):

>>> from pydantic import TypeAdapter, Field
>>> turn = TypeAdapter(Annotated[StrictInt, Field(ge=0), WHOLE])
>>> turn.validate_python(231268.0), turn.validate_python(7), turn.json_schema()
(231268, 7, {'minimum': 0, 'type': 'integer'})
>>> for value in (1.5, True, "1", -1.0):
...     try:
...         turn.validate_python(value)
...     except ValueError as error:
...         print(error.errors()[0]["type"])
int_type
int_type
int_type
greater_than_equal
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BeforeValidator, StrictInt


def _integral(value: Any) -> Any:
    """A float with no fractional part is the integer it equals (``231268.0`` is ``231268``); anything else as is."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


WHOLE = BeforeValidator(_integral)
"""Put after ``StrictInt`` (and its ``Field``): a number with no fractional part is that integer."""

Integer = Annotated[StrictInt, WHOLE]
"""A JSON integer, without constraints."""
