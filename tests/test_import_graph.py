"""The import graph of the library, read from the source (``ast``), never run.

Every module of nerspan, the four families and nerlens is parsed; each import that names
a module of the project, at module level or inside a function, relative imports
resolved, is an edge ``importer -> imported``. ``from package import name`` is an edge to
the module ``package.name`` when there is one, else to ``package`` (its ``__init__``);
the package a module belongs to is no edge of its own (Python imports it first anyway).

- No circle: the modules import each other in no loop.
- No project import inside a function: a function imports only an optional or heavy
  third-party dependency there (``LAZY``), never a module of the project (that is how a
  circle hides).
- The layers of DESIGN.md point down: nerspan imports no family and nothing of nerlens; a
  family imports no other family and nothing of nerlens.
- Only the command line names a family in an import: every other module of nerlens
  reaches a family through ``nerlens.families`` (in a Space's folder, ``import
  faireval`` would find the loading script ``faireval.py``).
"""
from __future__ import annotations

import ast
from dataclasses import dataclass

from tests.conftest import REPO, built_in_families

FAMILIES = built_in_families()
PACKAGES = ("nerspan",) + FAMILIES + ("nerlens",)

# Third-party modules a function may import: optional, or heavy and needed on one path.
LAZY = {"matplotlib", "datasets", "evaluate", "transformers", "torch", "tqdm", "gradio",
        "pyarrow", "scipy"}

# (attribute_buckets.core's ``from . import attributes`` imports the module
# attribute_buckets.attributes, not the package: no circle with attribute_buckets/__init__.)


@dataclass(frozen=True)
class Import:
    importer: str
    imported: str          # a module of the project, or a third-party module's name
    line: int
    in_function: bool


def project_modules(root=REPO) -> dict:
    """Module name -> parsed source, for every module of ``PACKAGES`` under ``root``."""
    out = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = (path, ast.parse(path.read_text(encoding="utf-8")))
    return out


def imports_of(name: str, tree: ast.Module, is_package: bool, modules) -> list[Import]:
    """Every import in ``tree`` (module ``name``), resolved to a project module where it
    names one (``modules``: the project's module names)."""
    package = name if is_package else name.rpartition(".")[0]
    found = []

    def visit(node, in_function: bool):
        for child in ast.iter_child_nodes(node):
            inside = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                       ast.Lambda))
            for target in _targets(child, package, modules):
                found.append(Import(name, target, child.lineno, in_function))
            visit(child, inside)

    visit(tree, False)
    return found


def _targets(node, package: str, modules) -> list[str]:
    if isinstance(node, ast.Import):
        return [_nearest_module(alias.name, modules) for alias in node.names]
    if not isinstance(node, ast.ImportFrom):
        return []
    base = node.module or ""
    if node.level:
        parts = package.split(".")
        parts = parts[:len(parts) - (node.level - 1)]
        base = ".".join(parts + ([base] if base else []))
    return [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules
            else _nearest_module(base, modules) for alias in node.names]


def _nearest_module(dotted: str, modules) -> str:
    """``dotted`` or its longest prefix that is a project module (``import a.b.c``);
    a third-party name as it is."""
    parts = dotted.split(".")
    for end in range(len(parts), 0, -1):
        if ".".join(parts[:end]) in modules:
            return ".".join(parts[:end])
    return dotted


def all_imports(modules: dict) -> list[Import]:
    return [found for name, (path, tree) in modules.items()
            for found in imports_of(name, tree, path.name == "__init__.py", modules)]


def graph(imports: list[Import], modules) -> dict:
    """Importer -> set of imported project modules."""
    edges: dict = {name: set() for name in modules}
    for found in imports:
        if found.imported in modules and found.imported != found.importer:
            edges[found.importer].add(found.imported)
    return edges


def find_cycle(edges: dict) -> list | None:
    """One cycle of the graph as ``[a, b, ..., a]``, or None."""
    state: dict = {}   # node -> "open" while on the path, "done" after
    path: list = []

    def visit(node):
        state[node] = "open"
        path.append(node)
        for target in sorted(edges.get(node, ())):
            if state.get(target) == "open":
                return path[path.index(target):] + [target]
            if target not in state:
                cycle = visit(target)
                if cycle:
                    return cycle
        path.pop()
        state[node] = "done"
        return None

    for node in sorted(edges):
        if node not in state:
            cycle = visit(node)
            if cycle:
                return cycle
    return None


def _top(module: str) -> str:
    return module.split(".")[0]


# -- the reader ----------------------------------------------------------------------------
def test_the_reader_resolves_relative_and_function_level_imports():
    modules = {"pkg", "pkg.a", "pkg.b", "pkg.sub", "pkg.sub.c"}
    source = ("from . import c\nfrom .. import a\nfrom ..b import g\nimport pkg.sub.c\n"
              "from pkg import VALUE\n"
              "def f():\n    from .c import g\n    import numpy.linalg\n")
    found = imports_of("pkg.sub.d", ast.parse(source), False, modules)
    assert [(i.imported, i.in_function) for i in found] == [
        ("pkg.sub.c", False), ("pkg.a", False), ("pkg.b", False), ("pkg.sub.c", False),
        ("pkg", False), ("pkg.sub.c", True), ("numpy.linalg", True)]
    in_package = imports_of("pkg", ast.parse("from .sub import c\nfrom . import a\n"), True,
                            modules)
    assert [i.imported for i in in_package] == ["pkg.sub.c", "pkg.a"]


def test_the_cycle_finder_names_the_cycle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) is None


# -- the house -----------------------------------------------------------------------------
def test_no_import_circle():
    modules = project_modules()
    assert {"nerspan.significance", "nerlens.report.build", "nerlens.cli"} <= set(modules)
    cycle = find_cycle(graph(all_imports(modules), modules))
    assert cycle is None, "an import circle: " + " -> ".join(cycle or [])


def test_a_function_imports_no_module_of_the_project():
    modules = project_modules()
    inside = [i for i in all_imports(modules) if i.in_function]
    offenders = {(i.importer, i.imported): i.line for i in inside
                 if _top(i.imported) in PACKAGES}
    assert offenders == {}, f"import these at module level (a circle? put things where " \
                            f"they belong): {offenders}"
    others = {(i.importer, i.imported) for i in inside
              if _top(i.imported) not in PACKAGES and _top(i.imported) not in LAZY}
    assert others == set(), f"only an optional or heavy dependency is imported in a " \
                            f"function: {others}"


def test_the_layers_point_down():
    """DESIGN.md: nerspan imports no family and nothing of nerlens; a family imports no
    other family and nothing of nerlens."""
    modules = project_modules()
    wrong = set()
    for found in all_imports(modules):
        source, target = _top(found.importer), _top(found.imported)
        if source == "nerspan" and target in FAMILIES + ("nerlens",):
            wrong.add((found.importer, found.imported))
        if source in FAMILIES and target in FAMILIES + ("nerlens",) and target != source:
            wrong.add((found.importer, found.imported))
    assert wrong == set(), f"an import that points up or across: {wrong}"


def test_only_the_command_line_names_a_family_in_an_import():
    modules = project_modules()
    naming = {(i.importer, i.imported) for i in all_imports(modules)
              if _top(i.importer) == "nerlens" and _top(i.imported) in FAMILIES
              and not i.importer.startswith("nerlens.cli")}
    assert naming == set(), f"reach a family through nerlens.families: {naming}"
