"""One calling convention, the same in the bindings, the type stubs and docs/python.md: every
add_* that joins two points or bodies takes a and b positionally or by keyword, and the
alternatives to b (anchor=...) by keyword only."""

import ast
import pathlib
import re

import pytest

import tinkertoy

ROOT = pathlib.Path(__file__).resolve().parents[2]
STUBS = ROOT / "python" / "tinkertoy" / "_tinkertoy.pyi"
DOCS = ROOT / "docs" / "python.md"

POSITIONAL, KEYWORD = "positional or keyword", "keyword only"


def split_top_level(text):
    """The comma-separated parts of `text`, ignoring commas inside brackets."""
    parts, depth, start = [], 0, 0
    for i, c in enumerate(text):
        depth += c in "([{"
        depth -= c in ")]}"
        if c == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    parts.append(text[start:].strip())
    return [part for part in parts if part]


def kinds(parameters):
    """[(name, kind)] of a parameter list as text ("a, b=None, *, anchor"), self left out."""
    result, kind = [], POSITIONAL
    for part in parameters:
        if part == "*":
            kind = KEYWORD
            continue
        name = re.match(r"\w+", part).group(0)
        if name != "self":
            result.append((name, kind))
    return result


def binding_signature(method):
    first = method.__doc__.splitlines()[0]
    inside = first[first.index("(") + 1:first.rindex(") ->")]
    return kinds(split_top_level(inside))


def stub_signatures(cls):
    tree = ast.parse(STUBS.read_text())
    (node,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls]
    signatures = {}
    for function in node.body:
        if isinstance(function, ast.FunctionDef) and not function.decorator_list:
            arguments = function.args
            signatures[function.name] = ([(a.arg, POSITIONAL) for a in arguments.args if a.arg != "self"]
                                         + [(a.arg, KEYWORD) for a in arguments.kwonlyargs])
    return signatures


def documented_signatures():
    """Every `add_...(...)` in docs/python.md's tables of methods, by name."""
    found = {}
    rows = "\n".join(line for line in DOCS.read_text().splitlines() if line.startswith("| `"))
    for name, inside in re.findall(r"`(add_\w+)\(([^`]*)\)`", rows):
        found.setdefault(name, []).append(kinds(split_top_level(inside)))
    return found


ADD_METHODS = sorted(name for name in dir(tinkertoy.Model) if name.startswith("add_"))
JOINING = [name for name in ADD_METHODS if [n for n, _ in binding_signature(getattr(tinkertoy.Model, name))][:2]
           == ["a", "b"]]


def test_every_method_that_joins_two_points_takes_b_positionally_and_anchor_by_keyword():
    assert set(JOINING) >= {"add_distance", "add_spring", "add_revolute", "add_weld", "add_prismatic", "add_angle",
                            "add_pulley"}
    for name in JOINING:
        signature = dict(binding_signature(getattr(tinkertoy.Model, name)))
        assert signature["a"] == signature["b"] == POSITIONAL, name
        assert signature.get("anchor", KEYWORD) == KEYWORD, name


@pytest.mark.parametrize("cls", ["Model", "Scene", "Simulator"])
def test_the_stubs_have_every_methods_parameters_as_the_bindings_do(cls):
    bound = getattr(tinkertoy, cls)
    for name, stub in stub_signatures(cls).items():
        if name.startswith("__") and name != "__init__":
            continue
        method = getattr(bound, name)
        if "Overloaded function" in (method.__doc__ or ""):
            continue
        assert binding_signature(method) == stub, f"{cls}.{name}"


def test_the_documentation_writes_every_add_method_as_the_bindings_take_it():
    documented = documented_signatures()
    assert set(documented) == set(ADD_METHODS), "each add_* method is in docs/python.md's tables"
    for name, signatures in documented.items():
        bound = binding_signature(getattr(tinkertoy.Model, name))
        for signature in signatures:
            # The docs may leave out name=""; the rest, in order and of the same kinds.
            assert signature == [p for p in bound if p[0] != "name" or p in signature], name


def test_b_is_positional_everywhere(pendulum):
    m = pendulum.model
    bob = m.bodies[0]
    other = m.add_particle(1.0, [2.0, 0.0])
    m.add_distance(bob, other)
    m.add_distance(bob, b=other)
    m.add_distance(other, anchor=[3.0, 0.0])
    m.add_spring(bob, other, stiffness=10.0)
    m.add_spring(bob, anchor=[0.0, 1.0], stiffness=10.0)
    left = m.add_rigid_body(1.0, tinkertoy.Shape.box(1.0, 0.1), [0.0, 2.0])
    right = m.add_rigid_body(1.0, tinkertoy.Shape.box(1.0, 0.1), [1.0, 2.0])
    m.add_revolute(left, right, anchor=[0.5, 2.0])
    m.add_angle(left, right, ratio=2.0)
    pill = m.add_rigid_body(2.0, tinkertoy.Shape.capsule(0.8, 0.1), [3.0, 2.0])
    assert tinkertoy.Shape.capsule(0.8, 0.1).type == "capsule"
    assert tinkertoy.Shape.capsule(0.8, 0.1).inertia(2.0) > tinkertoy.Shape.box(0.8, 0.2).inertia(2.0)
    with pytest.raises(ValueError):
        tinkertoy.Shape.capsule(0.0, 0.1)
    assert pill in m.bodies
    with pytest.raises(TypeError):
        m.add_distance(bob, other, [0.0, 0.0])  # anchor is keyword only
    with pytest.raises(TypeError):
        m.add_revolute(left, right, [0.5, 2.0])
