"""The callbacks a store, a session or a remote game calls after every change."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

F = TypeVar("F", bound=Callable[..., object])


class Listeners(Generic[F]):
    """Callbacks, called in the order they were added, from whichever thread made the change."""

    def __init__(self) -> None:
        self._callbacks: list[F] = []

    def add(self, callback: F) -> Callable[[], None]:
        """Call ``callback`` after every change; returns the function that stops it."""
        self._callbacks.append(callback)

        def remove() -> None:
            if callback in self._callbacks:
                self._callbacks.remove(callback)

        return remove

    def __iter__(self) -> Iterator[F]:
        return iter(list(self._callbacks))  # a copy: a callback may remove itself

    def clear(self) -> None:
        self._callbacks.clear()
