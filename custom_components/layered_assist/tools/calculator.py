"""The ``calculate`` tool: arithmetic through a whitelist walk of Python's AST."""

import ast
from collections.abc import Callable
import math
import operator
import re
from typing import Any

import voluptuous as vol

from homeassistant.helpers import config_validation as cv

from ..language.numbers import chinese_numerals_to_arabic, english_to_arabic
from .base import LOOKUP, ModelResult, ToolOutcome, ToolRequest, ToolSpec

MAX_EXPRESSION_LENGTH = 200
MAX_EXPONENT = 1000
# Results beyond this many bits (about 300 digits) are refused, not computed.
MAX_RESULT_BITS = 1000
MAX_FLOAT = 1e300

_BINARY: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
}
_UNARY: dict[type[ast.unaryop], Callable[[Any], Any]] = {
    ast.UAdd: operator.pos,
    ast.USub: operator.neg,
}
_FUNCTIONS: dict[str, Callable[..., Any]] = {
    "sqrt": math.sqrt,
    "abs": abs,
    "round": round,
    "min": min,
    "max": max,
}
_MAX_FUNCTION_ARGS = 20

# Symbols people (and models) write that Python spells differently.
_SPELLINGS = str.maketrans(
    {"×": "*", "÷": "/", "（": "(", "）": ")", "，": ",", "^": "**", "－": "-", "＋": "+"}
)
# A % that ends an operand (followed by nothing, ")", "," or an operator) is a percent sign.
_PERCENT = re.compile(r"(\d+(?:\.\d+)?)\s*%(?=\s*(?:$|[)+\-*/,%]))")


# Spoken operators, longest first so 除以 is not read as 除.
_SPOKEN_OPERATORS = (
    ("multiplied by", "*"),
    ("divided by", "/"),
    ("乘以", "*"),
    ("除以", "/"),
    ("加上", "+"),
    ("减去", "-"),
    ("減去", "-"),
    ("plus", "+"),
    ("minus", "-"),
    ("times", "*"),
    ("over", "/"),
    ("加", "+"),
    ("减", "-"),
    ("減", "-"),
    ("乘", "*"),
)
# Words around a spoken calculation that are not part of it.
_SPOKEN_FILLER = re.compile(
    r"^(?:请|請|帮我|幫我)?(?:计算|計算|算一下|算算)?|(?:等于|等於|是)?(?:多少|几|幾)?[?？。!！]*$"
    r"|^(?:calculate|compute|how much is|what is|what's)\s+|[?.!]+$",
    re.IGNORECASE,
)


def spoken_expression(text: str) -> str:
    """Turn a spoken calculation (三加四等于多少, what is 6 times 7) into an expression."""
    expression = _SPOKEN_FILLER.sub("", text.strip()).strip()
    expression = english_to_arabic(chinese_numerals_to_arabic(expression.lower()))
    for word, symbol in _SPOKEN_OPERATORS:
        expression = expression.replace(word, f" {symbol} ")
    return " ".join(expression.split())


class CalculationError(ValueError):
    """The expression cannot be evaluated; the message says why."""


def evaluate(expression: str) -> int | float:
    """Evaluate an arithmetic expression safely."""
    if len(expression) > MAX_EXPRESSION_LENGTH:
        raise CalculationError(f"expression longer than {MAX_EXPRESSION_LENGTH} characters")
    text = _PERCENT.sub(r"(\1/100)", expression.translate(_SPELLINGS).strip())
    if not text:
        raise CalculationError("empty expression")
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError as err:
        raise CalculationError(f"not an arithmetic expression: {expression}") from err
    try:
        result = _evaluate_node(tree.body)
    except ZeroDivisionError as err:
        raise CalculationError("division by zero") from err
    except OverflowError as err:
        raise CalculationError("result too large") from err
    except (ValueError, TypeError) as err:
        if isinstance(err, CalculationError):
            raise
        # The same words on every Python (3.14 words math errors differently).
        raise CalculationError("math domain error" if isinstance(err, ValueError) else str(err)) from err
    checked: int | float = _checked(result)
    return checked


def _evaluate_node(node: ast.expr) -> Any:
    """Evaluate one whitelisted node."""
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return node.value
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left = _evaluate_node(node.left)
        right = _evaluate_node(node.right)
        if isinstance(node.op, ast.Pow):
            _check_power(left, right)
        return _checked(_BINARY[type(node.op)](left, right))
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
        return _UNARY[type(node.op)](_evaluate_node(node.operand))
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in _FUNCTIONS
        and not node.keywords
        and 0 < len(node.args) <= _MAX_FUNCTION_ARGS
    ):
        args = [_evaluate_node(arg) for arg in node.args]
        return _checked(_FUNCTIONS[node.func.id](*args))
    raise CalculationError(f"not allowed in a calculation: {ast.unparse(node)}")


def _check_power(base: Any, exponent: Any) -> None:
    """Refuse powers whose result would be huge before computing them."""
    if abs(exponent) > MAX_EXPONENT:
        raise CalculationError(f"exponent larger than {MAX_EXPONENT}")
    if (
        isinstance(base, int)
        and isinstance(exponent, int)
        and exponent > 0
        and abs(base) > 1
        and exponent * math.log2(abs(base)) > MAX_RESULT_BITS
    ):
        raise CalculationError("result too large")


def _checked(value: Any) -> Any:
    """Refuse results that are too large to be useful."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise CalculationError("the result is not a number")
    if isinstance(value, int) and value.bit_length() > MAX_RESULT_BITS:
        raise CalculationError("result too large")
    if isinstance(value, float) and (math.isnan(value) or abs(value) > MAX_FLOAT):
        raise CalculationError("result too large")
    return value


def _tidy(value: int | float) -> int | float:
    """Return integral floats as ints and round away float noise."""
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 2**53:
            return int(value)
        return round(value, 10)
    return value


def calculate_spoken(text: str) -> tuple[str, int | float]:
    """Evaluate a spoken calculation; return the expression and its tidy result."""
    expression = spoken_expression(text)
    return expression, _tidy(evaluate(expression))


async def _async_calculate(request: ToolRequest) -> ToolOutcome:
    """Evaluate the expression for the model."""
    expression: str = request.args["expression"]
    try:
        value = evaluate(expression)
    except CalculationError as err:
        return ModelResult({"error": "invalid_expression", "error_text": str(err)})
    return ModelResult({"expression": expression, "result": _tidy(value)})


CALCULATE_TOOL = ToolSpec(
    name="calculate",
    traits=LOOKUP,
    description=(
        "Evaluate an arithmetic expression exactly. Supports + - * / // % **, "
        "parentheses, percentages like 15%, and sqrt, abs, round, min, max."
    ),
    parameters=vol.Schema(
        {
            vol.Required("expression", description="The expression, e.g. (3+4)*2 or 200*15%"): vol.All(
                cv.string, vol.Length(min=1, max=MAX_EXPRESSION_LENGTH)
            )
        }
    ),
    handler=_async_calculate,
)
