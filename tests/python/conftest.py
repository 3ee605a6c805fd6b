"""Shared fixtures of the Python tests: where the scenes are, and small models built in code."""

import contextlib
import pathlib
import threading
import time

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


@contextlib.contextmanager
def ticking():
    """A thread that notes the time every millisecond while the block runs, yielding the list of
    its ticks: ticks during a call show that the call let go of the GIL."""
    ticks = []
    done = threading.Event()

    def tick():
        while not done.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.001)

    ticker = threading.Thread(target=tick)
    ticker.start()
    try:
        yield ticks
    finally:
        done.set()
        ticker.join()
