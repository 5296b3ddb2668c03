"""The terminal driver: Textual's Linux driver, ending the app when its terminal goes away.

Textual's input thread reads the terminal; once the terminal is gone (the ssh connection or the
terminal window closed) a read gives no bytes (or fails: EIO on a pseudo-terminal, which Textual
showed as a traceback), and the thread read again at once, forever: the
process stayed, using a whole core, whenever no hang-up signal reached it (run under ``make``,
the hang-up goes to make alone). ``TerminalDriver`` stops reading there and tells the app
(``TerminalClosed``), which ends as on a hang-up signal: the game is saved as the session closes.

It also reads a lone Escape as the key once the escape delay has passed (``ESCDELAY``): Textual
looked again only every 100 ms, so Escape, which closes every screen, took 100 ms whatever the
delay.
"""

from __future__ import annotations

import os
import selectors
from codecs import getincrementaldecoder

from textual._loop import loop_last
from textual._parser import ParseError, Parser
from textual._time import get_time
from textual._xterm_parser import XTermParser
from textual.drivers.linux_driver import LinuxDriver
from textual.message import Message


class TerminalClosed(Message):
    """The terminal is gone: its input ended."""


class TerminalDriver(LinuxDriver):
    """Textual's ``LinuxDriver`` whose input thread ends with the terminal's input."""

    def run_input_thread(self) -> None:
        """Textual's ``LinuxDriver.run_input_thread`` (Textual is pinned), but for the end of
        input: it posts ``TerminalClosed`` and stops, where Textual's went on reading."""
        selector = selectors.SelectSelector()
        selector.register(self.fileno, selectors.EVENT_READ)
        fileno, read = self.fileno, os.read
        parser = XTermParser(self._debug)
        feed, tick = parser.feed, parser.tick
        decode = getincrementaldecoder("utf-8")().decode
        ended = False

        def process_selector_events(
            selector_events: list[tuple[selectors.SelectorKey, int]], final: bool = False
        ) -> None:
            nonlocal ended
            for last, (_key, mask) in loop_last(selector_events):
                if mask & selectors.EVENT_READ:
                    try:
                        data = read(fileno, 1024 * 4)
                    except OSError:  # EIO: a pseudo-terminal whose other end closed
                        data = b""
                    if not data:  # the terminal is gone
                        ended = True
                        break
                    for event in feed(decode(data, final=final and last)):
                        self.process_message(event)
            for event in tick():
                self.process_message(event)

        try:
            while not self.exit_event.is_set() and not ended:
                process_selector_events(selector.select(input_wait(parser)))
            if ended:
                self.send_message(TerminalClosed())
            else:
                selector.unregister(self.fileno)
                process_selector_events(selector.select(0.1), final=True)
        finally:
            selector.close()
            try:
                for _event in feed(""):
                    pass
            except (EOFError, ParseError):
                pass


def input_wait(parser: Parser) -> float:
    """How long the input thread waits for the terminal: until the parser's wait for the rest of
    a key ends (a lone Escape), else Textual's 0.1 s."""
    due = parser._timeout_time
    return 0.1 if due is None else min(0.1, max(0.0, due - get_time()))
