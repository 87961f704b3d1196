"""Self-checks of the naive reference engine against the independent referee."""

from __future__ import annotations

import copy
import json

import pytest

from tests import naive, referee

CONFIGS = [(2, 2), (3, 3), (4, 2), (6, 2), (6, 3), (8, 2), (9, 3), (10, 2), (12, 2), (12, 3)]
make_rules = naive.default_rules


def play(players: int, teams: int, seed: int, game: int, chip_limit: bool = False, max_turns: int = 1000) -> dict:
    """One random-policy game of the naive engine."""
    rules = make_rules(players, teams, chip_limit, max_turns)
    return naive.play_game(rules, ["random"] * players, seed, game)


# ---------------------------------------------------------------------------
# (a) naive games are legal
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("players,teams", CONFIGS)
def test_naive_games_pass_referee(players: int, teams: int) -> None:
    for game in range(16):
        rec = play(players, teams, seed=2024, game=game)
        assert referee.check_record(rec) == [], (players, teams, game)
        # The record survives a JSON round trip unchanged.
        assert json.loads(json.dumps(rec)) == rec


@pytest.mark.parametrize("players,teams", CONFIGS)
def test_naive_games_chip_limit_pass_referee(players: int, teams: int) -> None:
    for game in range(4):
        rec = play(players, teams, seed=77, game=game, chip_limit=True)
        assert rec["rules"]["chip_limit"] is True
        assert referee.check_record(rec) == [], (players, teams, game)


def test_record_shape_and_key_order() -> None:
    rules = make_rules(4, 2)
    rec = naive.play_game(rules, ["random"] * 4, 5, 3)
    assert list(rec) == ["format", "rules", "policies", "seed", "game", "board", "hands", "turns", "result"]
    assert rec["format"] == "simkit.game/1"
    assert rec["rules"] == rules and rec["rules"] is not rules
    assert rec["seed"] == 5 and rec["game"] == 3
    assert rec["board"] == naive.load_board()
    assert list(rec["result"]) == ["winner_team", "end", "turns", "sequences"]
    for turn in rec["turns"]:
        assert list(turn) == ["seat", "dead", "card", "action", "cell", "cell_name", "drawn", "reshuffle", "sequences"]
    for hand in rec["hands"]:
        assert len(hand) == 6
        assert [naive.card_code(c) for c in hand] == sorted(naive.card_code(c) for c in hand)


def test_board_is_official() -> None:
    board = naive.load_board()
    assert board == referee.OFFICIAL_BOARD
    assert [i for i, c in enumerate(board) if c == "XX"] == [0, 9, 90, 99]
    cells = naive.card_cells(board)
    assert len(cells) == 48 and all(len(v) == 2 for v in cells.values())
    assert all(code % 13 != 10 for code in cells)
    assert len(naive.LINES) == 192


def test_deterministic() -> None:
    assert play(2, 2, 9, 4) == play(2, 2, 9, 4)
    assert play(2, 2, 9, 4) != play(2, 2, 9, 5)


def test_turn_cap_and_stats() -> None:
    rec = play(2, 2, seed=1, game=0, max_turns=10)
    assert rec["result"] == {"winner_team": None, "end": "turn_cap", "turns": 10, "sequences": [0, 0]}
    assert referee.check_record(rec) == []
    st = naive.stats(rec)
    assert st["end"] == 2 and st["winner_team"] == -1 and st["turns"] == 10
    assert st["first_sequence_turn"] == -1 and st["first_sequence_team"] == -1
    assert st["chips_0"] + st["chips_1"] <= 10 and st["chips_2"] == 0
    # A record cut before the cap is not a finished game.
    short = copy.deepcopy(rec)
    short["turns"] = short["turns"][:9]
    short["result"]["turns"] = 9
    assert referee.check_record(short)
    # max_turns 0: no turns at all.
    rec0 = play(2, 2, seed=1, game=0, max_turns=0)
    assert rec0["turns"] == [] and rec0["result"]["end"] == "turn_cap"
    assert referee.check_record(rec0) == []


def test_stats_keys_and_consistency() -> None:
    keys = ["winner_team", "end", "turns", "first_sequence_turn", "first_sequence_team"]
    for name in ("sequences", "chips", "one_eyed", "two_eyed"):
        keys += [f"{name}_{t}" for t in range(3)]
    keys += ["dead_swaps", "reshuffles", "passes", "lead_changes"]
    for players, teams in [(2, 2), (3, 3), (12, 2)]:
        rec = play(players, teams, seed=3, game=1)
        st = naive.stats(rec)
        assert list(st) == keys
        assert st["turns"] == len(rec["turns"])
        assert st["passes"] == sum(t["action"] == "pass" for t in rec["turns"])
        assert st["dead_swaps"] == sum(t["dead"] is not None for t in rec["turns"])
        assert sum(st[f"sequences_{t}"] for t in range(3)) == sum(rec["result"]["sequences"])
        if rec["result"]["end"] == "win":
            assert st["winner_team"] == rec["result"]["winner_team"]
            assert st["first_sequence_turn"] >= 1
        placed = sum(t["action"] == "place" for t in rec["turns"])
        removed = sum(t["action"] == "remove" for t in rec["turns"])
        assert sum(st[f"chips_{t}"] for t in range(3)) == placed - removed
        assert sum(st[f"one_eyed_{t}"] for t in range(3)) == removed


def test_many_configs_reach_every_feature() -> None:
    """Over the games above, dead swaps, removes, reshuffles and wins all occur."""
    seen = {"dead": 0, "remove": 0, "reshuffle": 0, "win": 0, "seq": 0}
    for players, teams in [(2, 2), (3, 3), (12, 3)]:
        for game in range(6):
            rec = play(players, teams, seed=11, game=game)
            seen["win"] += rec["result"]["end"] == "win"
            for t in rec["turns"]:
                seen["dead"] += t["dead"] is not None
                seen["remove"] += t["action"] == "remove"
                seen["reshuffle"] += t["reshuffle"]
                seen["seq"] += len(t["sequences"])
    assert all(v > 0 for v in seen.values()), seen


# ---------------------------------------------------------------------------
# (b) mutated records are caught
# ---------------------------------------------------------------------------


def board_before(rec: dict, index: int) -> dict[int, int]:
    """cell -> team for the chips on the board before turn `index`."""
    teams = rec["rules"]["teams"]
    owner: dict[int, int] = {}
    for turn in rec["turns"][:index]:
        if turn["action"] == "place":
            owner[turn["cell"]] = turn["seat"] % teams
        elif turn["action"] == "remove":
            del owner[turn["cell"]]
    return owner


def hand_before_action(rec: dict, index: int) -> list[str]:
    """Seat's hand at turn `index`, after the dead swap, before playing."""
    hands = [list(h) for h in rec["hands"]]
    for i, turn in enumerate(rec["turns"][: index + 1]):
        hand = hands[turn["seat"]]
        drawn = list(turn["drawn"])
        if turn["dead"] is not None:
            hand.remove(turn["dead"])
            hand.append(drawn.pop(0))
        if i == index:
            return hand
        if turn["card"] is not None:
            hand.remove(turn["card"])
        hand.extend(drawn)
    raise IndexError(index)


def won_game(seed: int = 21) -> dict:
    """A 2-player game that ends in a win."""
    for game in range(50):
        rec = play(2, 2, seed, game)
        if rec["result"]["end"] == "win":
            return rec
    raise AssertionError("no win found")


def test_mutation_occupied_cell() -> None:
    rec = won_game()
    i = 30
    while rec["turns"][i]["action"] != "place":
        i += 1
    occupied = sorted(board_before(rec, i))
    bad = copy.deepcopy(rec)
    bad["turns"][i]["cell"] = occupied[0]
    problems = referee.check_record(bad)
    assert any("occupied" in p for p in problems), problems


def test_mutation_card_not_in_hand() -> None:
    rec = won_game()
    i = 10
    while rec["turns"][i]["action"] != "place" or rec["turns"][i]["card"][0] == "J":
        i += 1
    hand = hand_before_action(rec, i)
    assert rec["turns"][i]["card"] in hand
    cell = rec["turns"][i]["cell"]
    # Pretend the same cell was taken with a two-eyed Jack the seat does not hold.
    fake = next(c for c in ("JD", "JC") if c not in hand) if not {"JD", "JC"} <= set(hand) else None
    if fake is None:  # pragma: no cover - extremely unlikely
        pytest.skip("seat holds both two-eyed Jacks")
    bad = copy.deepcopy(rec)
    bad["turns"][i]["card"] = fake
    assert bad["turns"][i]["cell"] == cell
    problems = referee.check_record(bad)
    assert any("not in seat" in p for p in problems), problems


def test_mutation_drop_sequence() -> None:
    rec = won_game()
    i = next(k for k, t in enumerate(rec["turns"]) if t["sequences"])
    bad = copy.deepcopy(rec)
    bad["turns"][i]["sequences"] = bad["turns"][i]["sequences"][1:]
    problems = referee.check_record(bad)
    assert any("declared sequences" in p for p in problems), problems


def test_mutation_fake_pass() -> None:
    rec = won_game()
    i = next(k for k, t in enumerate(rec["turns"]) if k > 5 and t["action"] == "place" and not t["sequences"])
    bad = copy.deepcopy(rec)
    t = bad["turns"][i]
    t["card"], t["action"], t["cell"] = None, "pass", None
    t["drawn"] = t["drawn"][:-1]
    problems = referee.check_record(bad)
    assert any("passed although" in p for p in problems), problems


def test_mutation_wrong_winner() -> None:
    rec = won_game()
    bad = copy.deepcopy(rec)
    bad["result"]["winner_team"] = 1 - rec["result"]["winner_team"]
    problems = referee.check_record(bad)
    assert any("winner_team" in p for p in problems), problems


def test_mutation_misc() -> None:
    rec = won_game()
    # Wrong seat order.
    bad = copy.deepcopy(rec)
    bad["turns"][3]["seat"] = 0 if bad["turns"][3]["seat"] else 1
    assert any("seat" in p for p in referee.check_record(bad))
    # Winning turn that draws a card.
    bad = copy.deepcopy(rec)
    bad["turns"][-1]["drawn"] = ["AS"]
    assert referee.check_record(bad)
    # Missing end-of-turn draw.
    bad = copy.deepcopy(rec)
    bad["turns"][0]["drawn"] = []
    assert any("missing draw" in p for p in referee.check_record(bad))
    # Flipped reshuffle flag.
    bad = copy.deepcopy(rec)
    bad["turns"][0]["reshuffle"] = True
    assert any("reshuffle" in p for p in referee.check_record(bad))
    # A turn after the end.
    bad = copy.deepcopy(rec)
    bad["turns"].append(copy.deepcopy(bad["turns"][-2]))
    assert any("after the game ended" in p for p in referee.check_record(bad))
    # Drawing a card that is visibly in another hand (both copies used up).
    bad = copy.deepcopy(rec)
    other = bad["hands"][1]
    bad["hands"][0] = sorted(bad["hands"][0][:-1] + [other[0]], key=naive.card_code)
    bad["turns"][0]["drawn"] = [other[0]]
    assert referee.check_record(bad)
    # Wrong board.
    bad = copy.deepcopy(rec)
    bad["board"][1], bad["board"][2] = bad["board"][2], bad["board"][1]
    assert any("board" in p for p in referee.check_record(bad))
    # Wrong result counts / end.
    bad = copy.deepcopy(rec)
    bad["result"]["end"] = "stalemate"
    assert any("result.end" in p for p in referee.check_record(bad))
    bad = copy.deepcopy(rec)
    bad["result"]["sequences"] = [9, 9]
    assert any("result.sequences" in p for p in referee.check_record(bad))


def test_mutation_fake_dead_card() -> None:
    rec = won_game()
    i = 2
    bad = copy.deepcopy(rec)
    t = bad["turns"][i]
    assert t["dead"] is None
    hand = hand_before_action(rec, i)
    live = next(c for c in hand if c[0] != "J" and c != t["card"])
    t["dead"] = live
    t["drawn"] = ["AS"] + t["drawn"]
    problems = referee.check_record(bad)
    assert any("not dead" in p for p in problems), problems


def test_mutation_remove_locked_or_own() -> None:
    """A remove aimed at an own chip is refused."""
    for game in range(40):
        rec = play(2, 2, 5, game)
        for i, t in enumerate(rec["turns"]):
            if t["action"] != "remove":
                continue
            team = t["seat"] % 2
            own = [c for c, tm in board_before(rec, i).items() if tm == team]
            if own:
                bad = copy.deepcopy(rec)
                bad["turns"][i]["cell"] = own[0]
                problems = referee.check_record(bad)
                assert any("own team" in p for p in problems), problems
                return
    raise AssertionError("no remove found")


# ---------------------------------------------------------------------------
# (c) random numbers
# ---------------------------------------------------------------------------


def test_mix_and_canonical_splitmix64() -> None:
    assert naive.mix(0) == 0
    rng = naive.SplitMix64.from_state(1234567)
    assert [rng.next() for _ in range(3)] == [6457827717110365317, 3203168211198807973, 9817491932198370423]


def test_seeded_stream_values() -> None:
    # seed 0, game 0: state = mix(mix(0) ^ 0) = 0, i.e. canonical splitmix64 from 0.
    rng = naive.SplitMix64(0, 0)
    assert rng.state == 0
    assert [rng.next() for _ in range(3)] == [16294208416658607535, 7960286522194355700, 487617019471545679]
    rng = naive.SplitMix64(7, 3)
    assert rng.state == naive.mix(naive.mix(7) ^ 3)
    first = [rng.next() for _ in range(3)]
    again = naive.SplitMix64.from_state(naive.mix(naive.mix(7) ^ 3))
    assert first == [again.next() for _ in range(3)]
    assert first == [5123015643707495125, 18109886276499397889, 6964967775204890873]


def test_below_and_shuffle() -> None:
    rng = naive.SplitMix64(1, 2)
    ref = naive.SplitMix64(1, 2)
    for n in (1, 2, 3, 7, 52, 104, 2**31 + 5, 2**32 - 1):
        x = ref.next() >> 32
        value = rng.below(n)
        assert 0 <= value < n
        if (x * n) & 0xFFFFFFFF >= n:  # no rejection possible: plain high word
            assert value == (x * n) >> 32
        ref.state = rng.state
    assert all(naive.SplitMix64(3, 0).below(1) == 0 for _ in range(5))
    deck = list(range(52)) * 2
    naive.shuffle(naive.SplitMix64(0, 0), deck)
    assert sorted(deck) == sorted(list(range(52)) * 2)
    assert deck[:5] == [4, 8, 27, 49, 15]


def test_bad_policy() -> None:
    with pytest.raises(ValueError):
        naive.play_game(make_rules(2, 2), ["random", "greedy"], 0, 0)


# ---------------------------------------------------------------------------
# sequence detection and chip limit on constructed positions (both modules)
# ---------------------------------------------------------------------------


def naive_place(cells: list[int], last: int, team: int = 0) -> list[list[int]]:
    """Naive engine: put `team` chips on `cells`, then place on `last`."""
    g = naive.Game(make_rules(2, 2), naive.load_board())
    for c in cells:
        g.chips[c] = team
    g.chips[last] = team
    return g.new_sequences(last, team)


def referee_place(cells: list[int], last: int, team: int = 0) -> list[list[int]]:
    """Referee: the same position, through its own sequence rule."""
    t = referee._Table(2, 2, False, referee.OFFICIAL_BOARD)
    for c in cells:
        t.owner[c] = team
    t.owner[last] = team
    return t.sequences_through(last, team)


@pytest.mark.parametrize(
    "cells,last,expected",
    [
        # line of nine in row 1, completed in the middle: two sequences
        ([10, 11, 12, 13, 15, 16, 17, 18], 14, [[10, 11, 12, 13, 14], [14, 15, 16, 17, 18]]),
        # line of six: one sequence
        ([10, 11, 13, 14, 15], 12, [[10, 11, 12, 13, 14]]),
        # corner counts for the team
        ([1, 2, 3], 4, [[0, 1, 2, 3, 4]]),
        # down-left diagonal through the corner 9
        ([18, 27, 36], 45, [[9, 18, 27, 36, 45]]),
        # a cross: row and column through 44, declared row first
        ([40, 41, 42, 43, 4, 14, 24, 34], 44, [[40, 41, 42, 43, 44], [4, 14, 24, 34, 44]]),
        # four chips only: nothing
        ([11, 12, 13], 14, []),
    ],
)
def test_sequence_rule(cells: list[int], last: int, expected: list[list[int]]) -> None:
    assert naive_place(cells, last) == expected
    assert referee_place(cells, last) == expected


def test_sequence_shares_at_most_one_cell() -> None:
    g = naive.Game(make_rules(2, 2), naive.load_board())
    for c in range(10, 15):
        g.chips[c] = 0
    assert g.new_sequences(14, 0) == [[10, 11, 12, 13, 14]]
    g.chips[15] = 0  # extends to six: shares four cells, no new sequence
    assert g.new_sequences(15, 0) == []
    for c in (16, 17, 18):
        g.chips[c] = 0
    assert g.new_sequences(18, 0) == [[14, 15, 16, 17, 18]]
    assert g.locked[14] and g.locked[18] and not g.locked[19]


def test_chip_limit_targets() -> None:
    rules = make_rules(2, 2, chip_limit=True)
    g = naive.Game(rules, naive.load_board())
    t = referee._Table(2, 2, True, referee.OFFICIAL_BOARD)
    free = [c for c in range(100) if c not in naive.CORNERS]
    for c in free[:50]:
        g.chips[c] = 0
        t.owner[c] = 0
    g.chips[free[50]] = 1
    t.owner[free[50]] = 1
    for card in ("JD", "2S", "QH"):
        assert g.targets(naive.card_code(card), 0) == []
        assert t.legal_cells(card, 0) == []
    assert g.targets(naive.card_code("JS"), 0) == [free[50]]
    assert t.legal_cells("JS", 0) == [free[50]]
    assert g.targets(naive.card_code("JD"), 1) == t.legal_cells("JD", 1) != []
    g.chip_limit = False
    assert g.targets(naive.card_code("JD"), 0) != []
