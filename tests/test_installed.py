"""nctui as a user installs it: the wheel built from this tree, installed into a fresh virtual
environment outside it, run from a folder outside it.

Every registered game (read from the installed registry) plays one headless game, the title screen
draws on a pseudo-terminal, a finished game of each exported by the installed package opens with
``nctui replay FILE``, and every data file the code reads is in the installed package. This is
what an editable install cannot show: a data file that is not package data is still beside the code
there (the companion games once crashed after ``pip install .`` on exactly that).

The wheel is built offline with the build backend of this interpreter (``--no-build-isolation``:
make installs it from requirements.lock) from a copy of the tree, so nothing is written into the
source tree and nothing is downloaded; the dependencies are this interpreter's (a ``.pth`` file in
the new environment names the folders they are in; the ``.pth`` files of those folders, among them
an editable install's, are not run). Skipped with one line when this interpreter cannot build a
wheel. Slow (a build and an install, a few seconds): ``-m "not slow"`` leaves it out.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import pty
import re
import select
import shutil
import signal
import struct
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "nctui"
# The kinds of file the code reads beside itself; pyproject's package-data names them by pattern.
DATA_SUFFIXES = (".toml", ".tcss", ".html")
CODE_SUFFIXES = (".py", ".pyc", ".pyi")
DEADLINE = 60.0  # seconds for one step (a build, a game, the title screen) on a loaded machine

pytestmark = pytest.mark.slow

# Run in the installed environment: what it has (the registry's games, where nctui is imported
# from), the practice positions each game with them lists and whether each rules summary its entry
# names is there, read as installed.
PROBE = """
import json, sys
from importlib.resources import files
import nctui
from nctui.platform import registry
practice, rules = {}, {}
for e in registry.ENTRIES:
    if e.practice:
        found = registry.load(e.practice)(sys.argv[1])
        practice[e.id] = [[p.name, p.problem] for p in found]
    if e.rules:
        package, _, name = e.rules.partition(":")
        rules[e.id] = files(package).joinpath(name).is_file()
print(json.dumps({
    "nctui": nctui.__file__,
    "games": [[e.id, e.title] for e in registry.ENTRIES],
    "practice": practice,
    "rules": rules,
}))
"""


def _backend_problem() -> str:
    """Why this interpreter cannot build the wheel offline ('' when it can)."""
    # Versions from the metadata: importing setuptools here would replace distutils in this process.
    have = {name: _version(name) for name in ("pip", "setuptools", "wheel")}
    if have["pip"] is None or have["pip"] < Version("22.3"):
        return f"pip {have['pip'] or 'is missing'} here; installing into another environment needs 22.3 (--python)"
    if have["setuptools"] is None:
        return "setuptools is not installed in this interpreter (make installs it from requirements.lock)"
    wanted = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["build-system"]["requires"]
    for requirement in map(Requirement, wanted):
        if requirement.name == "setuptools" and not requirement.specifier.contains(have["setuptools"], True):
            return f"setuptools {have['setuptools']} here, the build asks for {requirement} (see requirements.lock)"
    if have["setuptools"] < Version("70.1") and have["wheel"] is None:
        return f"setuptools {have['setuptools']} here has no bdist_wheel and the wheel package is missing"
    return ""


def _version(distribution: str) -> Version | None:
    try:
        return Version(importlib.metadata.version(distribution))
    except importlib.metadata.PackageNotFoundError:
        return None


def _run(argv: list[str], *, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=DEADLINE, check=False)
    assert done.returncode == 0, f"{' '.join(argv)} exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
    return done


# Run in the installed environment: a finished game of each registered game, written as a save file
# (as ``s`` in a replay exports it) into the folder argv[1].
EXPORT = """
import random, sys
from nctui.platform import registry, saves
from nctui.platform.store import Store
for e in registry.ENTRIES:
    game = registry.game(e.id)
    config = registry.simulated(e.id).computer_game(1, (e.levels[0],) * max(e.players[0], 2))
    store, rnd = Store(config, game=game), random.Random(1)
    while game.decider(store.state) is not None:
        store.dispatch(rnd.choice(game.options(store.state)))
    saves.save(store, f"{sys.argv[1]}/{e.id}.nctui.json", "0123456789ab")
"""


def _replays(nctui: Path, folder: Path, cwd: Path, env: dict[str, str]) -> None:
    """``nctui replay`` of each exported game reads and replays it (then, with no terminal to show
    it in, says so in one line); a file that is no game is one line too."""
    (folder / "bad.nctui.json").write_text("{not json")
    for path in sorted(folder.glob("*.nctui.json")):
        done = subprocess.run(
            [str(nctui), "replay", str(path)],
            cwd=cwd,
            env=env,
            capture_output=True,
            text=True,
            timeout=DEADLINE,
            stdin=subprocess.DEVNULL,
        )
        assert done.returncode == 2 and "Traceback" not in done.stderr and done.stderr.count("\n") == 1, done.stderr
        expected = "nctui replay: error: bad.nctui.json" if path.name == "bad.nctui.json" else "needs a terminal"
        assert expected in done.stderr, f"{path.name}: {done.stderr}"


def _build_wheel(tmp: Path, env: dict[str, str]) -> Path:
    """The wheel of a copy of the tree as a fresh clone has it (no caches, no egg-info, no build/)."""
    source = tmp / "source"
    junk = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    shutil.copytree(PACKAGE, source / "nctui", ignore=junk)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    out = tmp / "dist"
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input"]
    _run([*pip, "wheel", "--quiet", "--no-deps", "--no-build-isolation", "--no-index", "-w", str(out), str(source)],
         cwd=tmp, env=env)  # fmt: skip
    (wheel,) = out.glob("nctui-*.whl")
    return wheel


def _dependency_folders() -> list[str]:
    """The folders this interpreter imports nctui's dependencies from."""
    folders: list[str] = []
    for line in importlib.metadata.requires("nctui") or ():
        requirement = Requirement(line)
        if requirement.marker is not None and not requirement.marker.evaluate():
            continue  # an extra's (the tests' tools), or not for this platform
        folder = str(importlib.metadata.distribution(requirement.name).locate_file(""))
        if folder not in folders:
            folders.append(folder)
    return folders


def _install(wheel: Path, venv: Path, env: dict[str, str]) -> Path:
    """A fresh environment with the wheel installed as pip installs it; its ``site-packages``."""
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], cwd=venv.parent, env=env)
    python = venv / "bin" / "python"
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input", "--python", str(python)]
    _run([*pip, "install", "--quiet", "--no-deps", "--no-index", str(wheel)], cwd=venv.parent, env=env)
    (site,) = (venv / "lib").glob("python*/site-packages")
    (site / "nctui-test-dependencies.pth").write_text("\n".join(_dependency_folders()) + "\n", encoding="utf-8")
    return site


def _user_env(home: Path) -> dict[str, str]:
    """A user's environment: no PYTHONPATH (nothing of the source tree), their own folders in ``home``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV", "NCTUI_", "XDG_"))}
    env.update(HOME=str(home), XDG_DATA_HOME=str(home / "data"), XDG_CACHE_HOME=str(home / "cache"))
    env.update(XDG_CONFIG_HOME=str(home / "config"), XDG_STATE_HOME=str(home / "state"), TERM="xterm-256color")
    env["PYTHONDONTWRITEBYTECODE"] = "1"  # as this workplace runs; the install compiled what it needs
    return env


ESCAPES = re.compile(r"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[()][0-9A-Za-z]|[=>78])")


def _squeezed(text: str) -> str:
    """Text compared without case or white space (the banner spaces out its letters)."""
    return "".join(text.split()).casefold()


def _title_screen(nctui: Path, cwd: Path, env: dict[str, str], titles: list[str]) -> str:
    """Start the installed ``nctui`` on an 80x24 pseudo-terminal, wait until the title screen shows
    every game's title and Quit, quit with ctrl+q; what it drew (escape sequences removed)."""
    import fcntl
    import termios

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    app = subprocess.Popen(
        [str(nctui)], stdin=slave, stdout=slave, stderr=slave, cwd=cwd, env=env, start_new_session=True
    )
    os.close(slave)
    raw = b""

    def read_for(seconds: float) -> bool:
        """Read what it draws for up to ``seconds``; False once it has exited and all is read."""
        ready, _, _ = select.select([master], [], [], seconds)
        if not ready:
            return True
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the terminal's other end closed
            return False
        nonlocal raw
        raw += chunk
        return bool(chunk)

    def drawn() -> str:
        return ESCAPES.sub("", raw.decode("utf-8", "replace"))

    wanted = [_squeezed(t) for t in (*titles, "Quit")]
    try:
        end = time.monotonic() + DEADLINE
        while not all(w in _squeezed(drawn()) for w in wanted):
            alive = read_for(0.2)
            if not alive or app.poll() is not None or time.monotonic() > end:
                pytest.fail(f"the title screen never showed {titles} and Quit (exit {app.poll()}); it drew:\n{drawn()}")
        screen = drawn()
        os.write(master, b"\x11")  # ctrl+q
        end = time.monotonic() + DEADLINE
        while app.poll() is None and time.monotonic() < end:
            read_for(0.2)  # keep reading: a terminal nobody reads blocks the app that writes to it
        assert app.poll() == 0, f"nctui did not quit on ctrl+q (exit {app.poll()}):\n{drawn()}"
        return screen
    finally:
        if app.poll() is None:
            os.killpg(app.pid, signal.SIGKILL)
            app.wait(timeout=10)
        os.close(master)


def _data_files(package: Path) -> set[str]:
    return {
        p.relative_to(package).as_posix()
        for p in package.rglob("*")
        if p.is_file() and p.suffix in DATA_SUFFIXES and "__pycache__" not in p.parts
    }


def test_the_source_tree_has_no_data_file_of_a_kind_the_package_data_does_not_name():
    """A new kind of data file (a .json, say) would not be installed: name it in pyproject and here.
    A README beside the code is for its readers, never read at run time."""
    strays = sorted(
        p.relative_to(ROOT).as_posix()
        for p in PACKAGE.rglob("*")
        if p.is_file()
        and p.suffix not in (*DATA_SUFFIXES, *CODE_SUFFIXES)
        and "__pycache__" not in p.parts
        and not p.name.startswith(".")
        and p.name != "README.md"
    )
    assert not strays, f"neither code nor package data ({', '.join(DATA_SUFFIXES)}): {strays}"


def test_the_installed_nctui_plays_every_game_and_draws_the_title_screen(tmp_path: Path):
    problem = _backend_problem()
    if problem:
        pytest.skip(f"cannot build a wheel offline here: {problem}")
    home = tmp_path / "home"
    elsewhere = tmp_path / "elsewhere"  # a folder outside the tree to run from
    for folder in (home, elsewhere):
        folder.mkdir()
    env = _user_env(home)

    site = _install(_build_wheel(tmp_path / "build", env), tmp_path / "venv", env)
    bin_dir = tmp_path / "venv" / "bin"

    missing = sorted(_data_files(PACKAGE) - _data_files(site / "nctui"))
    assert not missing, f"data files of the source tree that the installed package lacks: {missing}"

    probe = _run([str(bin_dir / "python"), "-I", "-c", PROBE, str(home / "saves")], cwd=elsewhere, env=env)
    found = json.loads(probe.stdout)
    assert Path(found["nctui"]).is_relative_to(site), f"nctui was imported from {found['nctui']}, not the install"
    games = found["games"]
    assert games, "the installed registry has no game"
    assert [g for g, there in found["rules"].items() if not there] == [], "rules summaries not installed"
    for game_id, positions in found["practice"].items():
        assert positions, f"{game_id}: no practice position is installed"
        assert not [p for p in positions if p[1]], f"{game_id}: practice positions that cannot be read: {positions}"

    for game_id, _ in games:
        played = _run([str(bin_dir / "nctui"), "simulate", "--game", game_id, "--games", "1", "--seed", "1"],
                      cwd=elsewhere, env=env)  # fmt: skip
        assert "Traceback" not in played.stdout + played.stderr, f"{game_id}:\n{played.stdout}\n{played.stderr}"

    exported = tmp_path / "exported"
    exported.mkdir()
    _run([str(bin_dir / "python"), "-I", "-c", EXPORT, str(exported)], cwd=elsewhere, env=env)
    _replays(bin_dir / "nctui", exported, elsewhere, env)

    _title_screen(bin_dir / "nctui", elsewhere, env, [title for _, title in games])
