"""Shared fixtures of the Python tests: where the scenes are, and small models built in code."""

import pathlib

import pytest

import tinkertoy

SCENES = pathlib.Path(__file__).resolve().parents[2] / "scenes"


@pytest.fixture
def scenes():
    """The directory of the shipped scenes."""
    return SCENES


@pytest.fixture
def pendulum():
    """scenes/pendulum.json: a particle on a rod, released horizontally."""
    return tinkertoy.load_scene(SCENES / "pendulum.json")
