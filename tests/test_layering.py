"""The layers' imports point down: recall and local action know no model protocol, the
chat loop knows no home logic, tools and selection share language helpers without
importing each other. Imports only for type checking are not counted."""

import ast
from functools import cache
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parent.parent / "custom_components" / "layered_assist"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _exists(module: str) -> bool:
    base = PACKAGE.joinpath(*module.split(".")) if module else PACKAGE
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def _runtime_nodes(tree: ast.Module) -> list[ast.stmt]:
    """Return the statements that run on import, skipping ``if TYPE_CHECKING:`` blocks."""
    nodes: list[ast.stmt] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            for child in node.body:
                child.type_checking = True  # type: ignore[attr-defined]
        if isinstance(node, ast.Import | ast.ImportFrom):
            nodes.append(node)
    return [n for n in nodes if not getattr(n, "type_checking", False)]


@cache
def imports_of(module: str) -> frozenset[str]:
    """Return the package's modules that ``module`` imports at run time."""
    path = PACKAGE.joinpath(*module.split("."))
    path = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in _runtime_nodes(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level:
            base_parts = package.split(".") if package else []
            base_parts = base_parts[: len(base_parts) - (node.level - 1)]
            base = ".".join([*base_parts, *([node.module] if node.module else [])])
            for alias in node.names:
                candidate = f"{base}.{alias.name}" if base else alias.name
                found.add(candidate if _exists(candidate) else base)
    return frozenset(m for m in found if m)


def reachable(module: str) -> set[str]:
    """Return every module of the package that importing ``module`` imports."""
    seen: set[str] = set()
    todo = [module]
    while todo:
        for imported in imports_of(todo.pop()):
            if imported not in seen:
                seen.add(imported)
                todo.append(imported)
    return seen


def modules_under(folder: str) -> list[str]:
    return sorted(_module_name(p) for p in (PACKAGE / folder).glob("*.py"))


def _in(module: str, *folders: str) -> bool:
    return any(module == f or module.startswith(f"{f}.") for f in folders)


def test_the_walk_sees_imports() -> None:
    """The walk itself works: the entity reaches every layer."""
    seen = reachable("conversation")
    assert {"chat.loop", "selection.recall", "dialogs.hub", "language.text"} <= seen


@pytest.mark.parametrize("module", modules_under("selection"))
def test_selection_knows_no_model_protocol(module: str) -> None:
    """Recall and local action import nothing of the chat client, directly or not."""
    assert not [m for m in reachable(module) if _in(m, "chat", "narrowing", "model_layer")]


@pytest.mark.parametrize("module", modules_under("chat"))
def test_chat_knows_no_home_logic(module: str) -> None:
    """The tool-calling loop imports nothing of selection, dialogs, tools or the stores."""
    home = ("selection", "dialogs", "tools", "llm_api", "models", "owners", "state", "alarms", "memos")
    assert not [m for m in reachable(module) if _in(m, *home)]


@pytest.mark.parametrize("module", modules_under("tools"))
def test_tools_do_not_import_selection(module: str) -> None:
    """Tools use the shared language helpers, not selection's modules."""
    assert not [m for m in imports_of(module) if _in(m, "selection")]


@pytest.mark.parametrize("module", modules_under("language"))
def test_language_helpers_stand_alone(module: str) -> None:
    """The shared helpers import no layer."""
    assert not [m for m in reachable(module) if _in(m, "selection", "dialogs", "tools", "chat")]
