"""Words for the steps of an effect (``content.schema.Step``): an option of a Choose effect
("climb 1 open step, paying for it"), the step being resolved, what a step that did nothing
would have done. Also why a step does nothing (``engine.futile.Nothing``)."""

from __future__ import annotations

from ..content import schema as cs
from .names import Words, plural

WHERE = {
    "any": "any area",
    "controlled": "an area you control",
    "fort": "an area with your Fort",
    "marked": "a Marked Area",
    "marked_or_fort": "a Marked Area or an area with your Fort",
    "presence": "an area where you are present",
    "empty": "an empty area",
    "shadows": "an area with Shadows",
    "adjacent_cathedral": "an area next to the Cathedral",
    "shaper": "your Shaper's area",
    "adjacent_shaper": "an area next to your Shaper",
    "fortress": "your Fortress's area",
    "corner": "a corner area",
    "nightmare": "the Nightmare's area",
}
WHOSE = {"any": "any", "shadows": "a Shadow", "opponents": "an opponent's", "own": "your own"}
DECKS = {
    "development": "Development card",
    "dream": "Dream card",
    "development2": "Stage II Development card",
    "dream2": "Stage II Dream card",
}

# Why a step does nothing (engine.futile.Nothing): said in the option, and in the log after the name.
NOTHING = {
    "nothing_to_pay": "nothing to pay with",
    "track_end": "no space to enter",
    "limbo_empty": "Limbo is empty",
    "no_upgrade": "no Upgrade in hand",
    "no_ploy": "no Ploy in hand",
    "no_development": "no Upgrade or Ploy in hand",
    "no_conflict": "no conflict possible",
    "no_effect": "no effect",
    "no_target": "no legal target",
    "stage1": "Nightmares and devouring wait for Stage 2",
}
# What did not happen, by the kind of decision the step would have asked (the log).
NOT_DONE = {
    "climb": "no step climbed",
    "recover": "no Follower brought back",
    "play_upgrade": "no Upgrade played",
    "play_ploy": "no Ploy played",
    "develop": "no Upgrade or Ploy played",
    "start_conflict": "no conflict resolved",
    "produce": "nothing produced",
    "move": "no move",
    "shaper_move": "the Shaper stays",
    "convert": "no unit converted",
    "build_fort_level": "no Fort level added",
    "add_shadow": "no Shadow added",
    "remove_follower": "no Follower returned",
    "devour": "nothing devoured",
    "command_nightmare": "no Nightmare commanded",
    "move_nightmare": "the Nightmare stays",
}


def nothing_text(reason: str) -> str:
    return NOTHING.get(reason, reason.replace("_", " "))


def describe_steps(steps: tuple[cs.Step, ...], w: Words) -> str:
    """An effect's steps in order, e.g. 'produce 1 in a Marked Area, then gain 1 MP'."""
    return ", then ".join(describe_step(s, w) for s in steps) or "nothing"


def describe_step(step: cs.Step, w: Words) -> str:
    """One step, in the imperative ('climb 1 open step, paying for it')."""
    return _units(step, w) or _cards_and_track(step, w) or _stage2(step, w) or type(step).__name__


def _units(step: cs.Step, w: Words) -> str:
    match step:
        case cs.Produce(amount=n, where=where, mode="each"):
            return f"each {WHERE[where].removeprefix('an ').removeprefix('a ')} produces {n}"
        case cs.Produce(amount=n, where=where, mode="one"):
            return f"produce {n} in {WHERE[where]}"
        case cs.Produce(amount=n, where=where):
            return f"produce {n} in {'a Marked Area' if where == 'marked' and n == 1 else _spread(where)}"
        case cs.Move(mp=mp, shaper_only=shaper_only):
            return f"gain {mp} MP" + (" for your Shaper only" if shaper_only else "")
        case cs.Convert(count=n, where=where):
            return f"convert {plural(n, 'enemy unit')} in {WHERE[where]}"
        case cs.ShaperMove(anywhere=True):
            return "move your Shaper to any area"
        case cs.ShaperMove(steps=n):
            return f"move your Shaper {plural(n, 'step')}"
        case cs.AddFortLevels(count=n, cost=cost, where=where, existing_only=existing):
            pay = f" (removing {', then '.join(plural(c, 'Follower') for c in cost)})" if any(cost) else ""
            onto = " onto an existing Fort" if existing else ""
            return f"add up to {plural(n, 'Fort level')}{onto} in {_spread(where)}{pay}"
        case cs.AddShadows(count=n, where=where, spread=spread):
            return f"add {plural(n, 'Shadow')} to {_spread(where) if spread else WHERE[where]}"
        case cs.RemoveFollowers(count=n, where=where):
            return f"return {plural(n, 'Follower')} from {WHERE[where]} to your supply"
        case cs.RecoverLimbo(count=n, where=where):
            return f"bring {plural(n, 'Follower')} back from Limbo to {WHERE[where]}"
    return ""


def _spread(where: str) -> str:
    return (
        f"areas: {WHERE[where]}"
        if where not in ("controlled", "marked")
        else {"controlled": "areas you control", "marked": "Marked Areas"}[where]
    )


def _cards_and_track(step: cs.Step, w: Words) -> str:
    match step:
        case cs.Climb() as c:
            return _climb(c)
        case cs.Draw(deck=deck, count=n, keep=keep) if 0 < keep < n:
            return f"draw {plural(n, DECKS[deck])} and keep {keep}"
        case cs.Draw(deck=deck, count=n):
            return f"draw {plural(n, DECKS[deck])}"
        case cs.PlayUpgrades(count=0):
            return "play any number of Upgrades"
        case cs.PlayUpgrades(count=n):
            return f"play {plural(n, 'Upgrade')}"
        case cs.PlayPloys(count=0):
            return "play any number of Ploys"
        case cs.PlayPloys(count=n):
            return f"play {plural(n, 'Ploy')}"
        case cs.ResolveConflicts(area=area) if area:
            return f"resolve a conflict in {w.area(area)}"
        case cs.ResolveConflicts(count=n, where=where):
            return f"resolve {plural(n, 'conflict')}" + ("" if where == "any" else f" in {WHERE[where]}")
        case cs.MoveDreamer():
            return "at the end of the turn, move your Dreamer to any Night space"
        case cs.PerformConform():
            return "perform the Conform part of one of your Action cards"
        case cs.Choose(options=options):
            return "choose: " + " or ".join(describe_steps(o, w) for o in options)
    return ""


def _climb(c: cs.Climb) -> str:
    kind = "open or special" if c.special else "open"
    out = []
    if c.paid:
        out.append(
            "climb any number of steps, paying for each"
            if c.steps == 0
            else f"climb {plural(c.steps, f'{kind} step')}, paying for {'it' if c.steps == 1 else 'each'}"
        )
    free = c.free + (0 if c.paid else c.steps)
    if free:
        kinds = " or ".join(c.kinds)
        out.append(f"climb {plural(free, kinds + ' step')} for free")
    return ", then ".join(out) or "climb"


def _stage2(step: cs.Step, w: Words) -> str:
    match step:
        case cs.CommandNightmare(count=n):
            return f"command {'a Nightmare' if n == 1 else plural(n, 'Nightmare')}"
        case cs.Devour(count=n, whose=whose):
            return f"devour {plural(n, 'unit')}" + ("" if whose == "any" else f" ({WHOSE[whose]})")
        case cs.NightmareMove(steps=n, anywhere=anywhere):
            return "move the Nightmare to any area" if anywhere else f"move the Nightmare {plural(n, 'step')}"
        case cs.NightmareReturn():
            return "return the Nightmare to the Cathedral"
    return ""
