"""Passwords of ``nctui serve`` (``net/auth.py``): a shared password or accounts, kept as scrypt
hashes; a malformed file is one line; wrong guesses are throttled per address."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest

from nctui.platform.net.auth import PasswordError, Passwords, Throttle, hash_password, verify
from tests.serve_helpers import ROOT


def test_a_password_file_is_kept_as_hashes_and_checked_by_hashing(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.write_text("open sesame\n")
    p = Passwords.read(shared)
    assert p.shared is not None and "open sesame" not in p.shared and p.shared.startswith("scrypt$")
    assert p.check("anyone", "open sesame") and not p.check("anyone", "open")
    accounts = tmp_path / "accounts"
    accounts.write_text(f"ann:{hash_password('red')}\nbob: blue \n")
    p = Passwords.read(accounts)
    assert p.check("ann", "red") and p.check("bob", "blue")
    assert not p.check("ann", "blue") and not p.check("carl", "red")
    assert all(v.startswith("scrypt$") for v in p.accounts.values())


@pytest.mark.parametrize(
    ("text", "said"),
    [("", "is empty"), ("ann:x\nnocolon\n", "line 2: not USER:PASSWORD"), ("\xff", "not UTF-8")],
)
def test_a_password_file_nctui_cannot_use_is_one_line(tmp_path: Path, text: str, said: str) -> None:
    path = tmp_path / "pw"
    path.write_bytes(text.encode("latin-1"))
    with pytest.raises(PasswordError, match=said):
        Passwords.read(path)


def test_wrong_guesses_make_the_address_wait_and_a_right_one_clears_it() -> None:
    throttle = Throttle(first=0.2)
    passwords = Passwords(shared=hash_password("right"))

    async def body() -> None:
        assert not await throttle.attempt("10.0.0.1", passwords, "u", "wrong")
        assert throttle.wait_for("10.0.0.1") > 0 and throttle.wait_for("10.0.0.2") == 0
        assert await throttle.attempt("10.0.0.1", passwords, "u", "right")  # after its wait
        assert throttle.wait_for("10.0.0.1") == 0 and "10.0.0.1" not in throttle.failures
        for _ in range(7):
            throttle._counted("10.0.0.3", False)
        assert throttle.wait_for("10.0.0.3") > 0.2 * 2**1  # doubling after the fifth

    asyncio.run(asyncio.wait_for(body(), 30))


def test_hash_password_prints_a_line_for_the_file() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "nctui", "serve", "--hash-password"],
        input="open sesame\n",
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        check=True,
    )
    line = done.stdout.strip()
    assert verify("open sesame", line) and not verify("open", line) and "sesame" not in line
