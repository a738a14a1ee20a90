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


# Every module belongs to one level; an import may only point to a lower level or within its
# own package. Top-level modules not listed here assemble the integration (the highest level).
LEVELS: tuple[tuple[str, ...], ...] = (
    ("const",),
    ("compat", "language"),
    ("localize",),
    ("state", "memos", "alarms", "turn"),
    ("chat", "selection"),
    ("dialogs",),
    ("tools",),
)


def level_of(module: str) -> int:
    unit = module.split(".")[0]
    return next((n for n, units in enumerate(LEVELS) if unit in units), len(LEVELS))


def all_modules() -> list[str]:
    return sorted(_module_name(p) for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)


@pytest.mark.parametrize("module", all_modules())
def test_imports_point_down(module: str) -> None:
    """No module imports one of a higher level, nor a package of its own level another
    package (chat and selection know nothing of each other)."""
    upward = [
        imported
        for imported in imports_of(module)
        if imported.split(".")[0] != module.split(".")[0]
        and (
            level_of(imported) > level_of(module)
            or (level_of(imported) == level_of(module) and "." in imported and "." in module)
        )
    ]
    assert not upward


@pytest.mark.parametrize("module", all_modules())
def test_no_module_reaches_itself(module: str) -> None:
    """No import cycle, however long: importing a module never leads back to it."""
    assert module not in reachable(module)


def test_no_package_cycle() -> None:
    """Following imports from any module of a package never leads back into that package
    from outside it (selection -> tools -> dialogs -> selection was such a loop)."""
    loops = []
    for module in all_modules():
        package = module.split(".")[0]
        for imported in imports_of(module):
            if imported.split(".")[0] == package:
                continue
            back = [m for m in reachable(imported) if m.split(".")[0] == package and "." in m]
            if "." in module and back:
                loops.append((module, imported, back[0]))
    assert not loops


def test_the_level_check_sees_an_upward_import() -> None:
    """The check itself fails on the loop it was written for: selection importing tools."""
    assert level_of("tools.base") > level_of("selection.recall")
    assert level_of("conversation") == len(LEVELS)


@pytest.mark.parametrize("module", modules_under("language"))
def test_language_helpers_stand_alone(module: str) -> None:
    """The shared helpers import no layer."""
    assert not [m for m in reachable(module) if _in(m, "selection", "dialogs", "tools", "chat")]
