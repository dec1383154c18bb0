"""The field types of the API's request bodies, strict but true to JSON, and the reading of the JSON itself.

A JSON integer is a number with no fractional part, however written (``7``, ``7.0``, ``7e0``): that is what
JSON Schema's ``"integer"`` means, so the server accepts what the OpenAPI document says is valid. ``true``,
``"7"`` and ``7.5`` are refused, and so is ``1e-400``: a body is read with its numbers exact
(:func:`read_json`), so a fraction too small for a float is still a fraction. Constraints go before
:data:`WHOLE`, so that the document shows them (``minimum``, not pydantic's ``ge``):

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

Read from JSON text, a number is exactly what it says:

>>> [turn.validate_python(n) for n in read_json("[231268.0, 2.31268e5, 12345678901234567891.0]")]
[231268, 231268, 12345678901234567891]
>>> try:
...     turn.validate_python(read_json("1e-400"))
... except ValueError as error:
...     print(error.errors()[0]["type"])
int_type
"""

from __future__ import annotations

import json
import sys
from decimal import Decimal, InvalidOperation
from typing import Annotated, Any

from pydantic import BeforeValidator, StrictInt

MAX_DIGITS = sys.get_int_max_str_digits() or 4300
"""The most digits of an integer in a body: Python's own limit on an integer written out in full, which
``json`` applies to ``1000…0``, applied to ``1e5000`` too (a body over it is no valid JSON)."""


def _number(literal: str) -> Decimal:
    """A JSON number with a fraction or an exponent, exactly (``ValueError`` if its integer part is too long)."""
    try:
        value = Decimal(literal)
    except InvalidOperation:  # an exponent beyond what Decimal can hold
        value = Decimal("Infinity")
    if not value.is_finite() or _integer_digits(value) > MAX_DIGITS:
        raise ValueError(f"a number of more than {MAX_DIGITS} digits: {literal[:40]}")
    return value


def _integer_digits(value: Decimal) -> int:
    """How many digits the integer part of a finite ``value`` has (``0`` for a pure fraction)."""
    _, digits, exponent = value.as_tuple()
    assert isinstance(exponent, int)
    return max(len(digits) + exponent, 0)


def _is_whole(value: Decimal) -> bool:
    """A finite ``value`` has no fractional part (every digit after the point, if any, is 0)."""
    _, digits, exponent = value.as_tuple()
    assert isinstance(exponent, int)
    return exponent >= 0 or not any(digits[_integer_digits(value) :])


def read_json(text: str | bytes) -> Any:
    """JSON with every number exact: an ``int``, or a :class:`~decimal.Decimal` when written with a fraction or
    an exponent (``7.0``, ``1e-400``) — never a float, which would round ``1e-400`` to ``0.0``.

    ``ValueError`` (``json.JSONDecodeError`` for text that is no JSON) if it cannot be read.

    >>> read_json('{"deal": 1e-400, "turn": 7, "x": 2.50}')
    {'deal': Decimal('1E-400'), 'turn': 7, 'x': Decimal('2.50')}
    """
    return json.loads(text, parse_float=_number, parse_constant=_no_constant)


def _no_constant(name: str) -> Any:
    """``NaN``, ``Infinity``, ``-Infinity``: Python's json reads them, JSON has no such thing."""
    raise ValueError(f"{name} is not JSON")


def _integral(value: Any) -> Any:
    """A number with no fractional part is the integer it equals (``231268.0`` is ``231268``); anything else as is.

    A float (from Python) or a :class:`~decimal.Decimal` (from :func:`read_json`, exact: ``1E-400`` has a fraction).
    """
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, Decimal) and value.is_finite() and _integer_digits(value) <= MAX_DIGITS and _is_whole(value):
        return int(value)
    return value


WHOLE = BeforeValidator(_integral)
"""Put after ``StrictInt`` (and its ``Field``): a number with no fractional part is that integer."""

Integer = Annotated[StrictInt, WHOLE]
"""A JSON integer, without constraints."""
