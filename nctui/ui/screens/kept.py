"""Screens made once and kept: the rules and the help open in one frame of lines already drawn.

Opening the rules at 120x40 made a screen of a dozen widgets, styled them, laid them out and drew
229 lines: 92-113 ms from the key to the frame on a pty, twice the 50 ms a key may take. A kept
screen is installed in the app under a name, so closing it keeps it; ``prepare`` makes it out of
sight while the game waits for a decision (composed, mounted, laid out and drawn into its
widgets' line caches), so even the first key shows it from lines drawn before.

A kept screen laid out at another terminal size is made anew (its breakpoint classes are those of
its size). Works with any Textual app (``NctuiApp`` and the lobby's).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from textual.app import App
from textual.screen import Screen

from ..textual_ext.backdrop import Backdrop

S = TypeVar("S", bound=Screen)


def kept_screen(
    app: App, name: str, make: Callable[[], S], kind: type[S], *, fits: Callable[[S], bool] | None = None
) -> S:
    """The screen kept under ``name``, made with ``make`` (and installed) if none is, or if the one
    kept was laid out at another size than the terminal's, or does not ``fit`` (another game's)."""
    if app.is_screen_installed(name):
        screen = app.get_screen(name)
        laid_out = screen._compositor.size
        if (
            isinstance(screen, kind)
            and (fits is None or fits(screen))
            and (not laid_out or laid_out == app.size or screen in app.screen_stack)
        ):
            return screen
        app.uninstall_screen(name)
        if screen.is_running and screen not in app.screen_stack:
            screen.remove()
    screen = make()
    app.install_screen(screen, name)
    return screen


def prepare(
    app: App, name: str, make: Callable[[], S], kind: type[S], *, fits: Callable[[S], bool] | None = None
) -> None:
    """Make the screen kept under ``name`` out of sight: its widgets composed and mounted, laid
    out at the terminal's size and drawn (the lines kept in each widget). Returns at once; the
    work is done in steps between the app's other messages (a key is not kept waiting behind it
    longer than the drawing of one screen). Nothing is done for a screen already made."""
    if app._exit or app._closing or not app.size:
        return  # closing: nothing to make ahead
    screen = kept_screen(app, name, make, kind, fits=fits)
    if screen.is_running:
        return
    # Registered, its widgets are composed and mounted by its own message loop, before the
    # callbacks queued to it (the app's own loop is not made to wait for that: a test ending
    # as a screen was being made kept the app waiting for a mount that never came)
    app._register(app, screen)
    _redraw(app, screen, name)


def made_as_the_app_closed(screen: Screen) -> bool:
    """A screen made ahead as the app began to close: Textual mounted none, or only some, of its
    widgets (the app stopped running before the screen composed: the containers it composed never
    compose theirs), so its ``on_mount`` has nothing to fill."""
    return screen._closing or not screen.app.is_running


def redraw(app: App, name: str) -> None:
    """Lay out and draw the screen kept under ``name`` out of sight, after a change to it (the
    rules at the decision due, as the decision changes): it comes up from lines drawn ahead.
    Done by the screen after what it was asked before (a widget's new layout). Nothing is done
    for a screen not made, or in sight."""
    if app.is_screen_installed(name) and (screen := app.get_screen(name)).is_running:
        _redraw(app, screen, name)


def _redraw(app: App, screen: Screen, name: str) -> None:
    def lay_out() -> None:
        if _out_of_sight(app, screen, name) and app.size:
            screen._refresh_layout(app.size)
            screen.call_later(draw)  # a key pressed meanwhile is not kept waiting behind both

    def draw() -> None:
        if _out_of_sight(app, screen, name) and screen._compositor.size == app.size:
            screen._compositor.render_update(full=True)  # each widget draws its lines, kept
            # What it asked for before is done: laid out and drawn (Textual would lay it out and
            # draw it again as it comes up)
            screen._layout_required = screen._repaint_required = screen._scroll_required = False
            screen._layout_widgets.clear()
            screen._dirty_widgets.clear()
            # Its update timer, made paused by the layout, waits a whole period (1/60 s) from
            # when it is first resumed before its first frame; once it has ticked, the next frame
            # waits for its next tick only. One tick now, out of sight (it finds nothing to do).
            screen._update_timer.resume()
            warm_backdrop(app, name)

    screen.call_later(lay_out)


def warm_backdrop(app: App, name: str) -> None:
    """Tint the lines of the screen in sight as they show under the translucent screen kept
    under ``name`` (``Backdrop``, which keeps them): any translucent screen opened over it next
    finds them tinted while it has not changed (the timeline over the game: ~12 ms less)."""
    if not app.is_screen_installed(name):
        return
    kept, under = app.get_screen(name), app.screen
    color = kept.styles.background
    if kept is under or not kept.is_mounted or not 0 < color.a < 1 or not under._compositor.size:
        return
    size = under._compositor.size
    Backdrop(under, color).render_strips(size.width, size.height, kept.visual_style, None)  # type: ignore[arg-type]


def _out_of_sight(app: App, screen: Screen, name: str) -> bool:
    """Still the one kept under ``name``, and not opened meanwhile (then it came up as any
    screen does)."""
    return (
        app.is_screen_installed(name)
        and app.get_screen(name) is screen
        and screen not in app.screen_stack
        and screen.is_attached
    )
