"""What every term a report prints means: the one source of the table of docs/guide/reports.md, 'Glossary'.

Data only: ``simkit.presentation.render`` draws it (``glossary_markdown``, ``glossary_table``),
and ``simkit report --explain`` prints it. A test keeps the docs' table equal to
``simkit.presentation.render.glossary_markdown()`` and checks that every term a report prints
has an entry.
"""

from __future__ import annotations

from simkit.analysis.stats import FAIR_BAND
from simkit.game.options import OPTIONS

P_FLOOR_TEXT = "< 1e-300"
UNDEFINED = "\u2014"

GLOSSARY: dict[str, str] = {
    # the title line of a configuration
    **{name: option.help for name, option in OPTIONS.items()},
    "policies": "Who plays: the player of each seat, comma-separated, seat 0 first (a shorter list cycles over "
    "the teams). See player. With swap_seats, the line-up of the even games.",
    "seed": "The run's master seed: with the configuration it decides every game.",
    "swap_seats": "True: the line-up rotated from game to game (two teams: seats swapped every other game), so "
    "each player held every place at the table equally often; see Line-up scores.",
    "incomplete": "The run was asked for more games than are on disk (n=60,000 of 200,000): it was interrupted "
    "or is still running, and re-running it resumes it.",
    "n, games": "Number of games of the configuration (n= at the end of the title; games in JSON and CSV).",
    # sections
    "Team win rates": "Section teams: each team's wins and win_rate over all games. Draws count as games not "
    "won, so the teams' rates plus the draw rate make 100%.",
    "Shares of the decided games": "Section shares: every team's wins and its share of the decided games "
    "(decided_share), with Goodman's simultaneous 95% intervals: together they hold "
    "every team's share at once, so two teams' intervals can be compared.",
    "Largest gap": "Section gap: the largest gap between two teams' shares of the decided games (max_gap), with "
    "its 95% interval, over the decided games.",
    "Seats": "Section seats: each seat's team and player, with its team's win rate (a seat has no win rate of "
    "its own; with one seat per team, seat = team).",
    "Outcomes": "Section outcomes: how the games ended. win, stalemate and turn_cap exclude one another and add "
    "up to the total (all games, 100%); the line under the table gives draw = stalemate + turn_cap.",
    "Game length": "Section length: turns per game counted over all seats, passes included; the rounds column "
    "gives the same per player (section rounds in JSON and CSV).",
    "turns (all seats)": "Turns per game counted over every seat: at 8 players, 44 turns are 5.5 turns for each "
    "player.",
    "rounds": "Turns per player (turns / players): a round is one turn of every seat. A column of Game length; "
    "section rounds in JSON, CSV and simkit.summarise.",
    "First sequence": "Section first_sequence: how often and when a game's first sequence is completed, and how "
    "often the team that completed it wins.",
    "How the games unfold": "Section unfold: how often the team that completed the first sequence loses "
    "(comebacks), how many turns a game lasts after its first sequence (closing_turns), and how often the lead in "
    "sequences passes from one team to another (lead_changes, lead_changed). A dataset written before simkit "
    "0.6.0 has no lead changes: a note under the section says so, and the two lead rows are undefined.",
    "Equal team strength": "Section equal_strength: a chi-square test of whether every team wins equally often, on "
    "the decided games.",
    "First-mover advantage": "Section first_mover: how often team 0 (seat 0 moves first) wins the decided games, "
    "against its fair share. With a mixed line-up (teams playing different players) it "
    "measures the line-up, not the seat order, and a note under it says so.",
    "Balance": "Section balance: how close the teams are: 1 minus the largest gap between two teams' win rates, "
    "over all games and over the decided games.",
    "Line-up scores": "Section lineups: runs with swap_seats only. Each line-up position's player, the games it "
    "played, its wins, the draws, and its score with its 95% Wilson interval.",
    "Means per game and team": "Section team_means: per team, the mean per game of Jacks played, and of "
    "sequences and chips held at the end.",
    "Means per game": "Section game_means: the mean per game of dead_swaps, reshuffles and passes.",
    # columns and metrics, in report order
    "team": "A team number, 0 to teams - 1. Seat s plays for team s % teams.",
    "seat": "A seat number: seat 0 moves first, then 1, 2 and so on around the table.",
    "policy": "The player of the seat (random, greedy, swift, ..., with its parameters); rotates when the "
    "line-up rotated from game to game (swap_seats).",
    "player": "What chooses a seat's moves: random, greedy, fast, swift, lookahead, ismcts, with their parameters "
    "(docs/guide/players.md); RULES.md calls it a policy. The flag that names them (--policy) and the report's "
    "and dataset's fields (policy, policies) keep that word, so that commands, scripts and published datasets "
    "keep working.",
    "wins": "Games the team won. In First-mover advantage: the wins of team 0.",
    "win_rate": "Share of games won: wins / all games in Team win rates, wins / decided games in First-mover "
    "advantage.",
    "team_win_rate": "The win_rate of the seat's team (over all games).",
    "95% CI": "The 95% confidence interval of the number before it: a Wilson interval for rates and shares, a "
    "t-interval for the mean game length, the delta method for its standard deviation, Goodman's "
    "simultaneous intervals for the shares of the decided games, the largest gap and balance with three "
    "teams. Blank when the metric has none.",
    "Wilson interval": "The interval of every rate (Wilson score interval, 95%): the true rates that fit the "
    "observed count. Unlike rate ± 2 standard errors it stays within 0-100% and holds near "
    "0% and 100%.",
    "outcome": "How a game ended: win, stalemate or turn_cap.",
    "count": "In Outcomes: games that ended that way. In First sequence: games in which a sequence was completed.",
    "rate": "count / all games.",
    "win": "A team reached sequences_to_win sequences and won.",
    "stalemate": "Every seat passed in one full round (nobody could play): the game ends without a winner.",
    "turn_cap": "The game reached max_turns turns with neither a win nor a stalemate and was stopped: no winner.",
    "total": "win + stalemate + turn_cap: every game once, 100%.",
    "draw": "A game without a winner: draw = stalemate + turn_cap. Printed under the outcomes, not as a fourth "
    "outcome.",
    "mean": "Average game length in turns, with its 95% t-interval.",
    "std": "Standard deviation of the game length in turns, with its 95% interval (delta method, from the fourth "
    "moment).",
    "median": "The middle game length: half the games are shorter, half longer.",
    "p5, p25, p75, p95": "Percentiles of the game length: 5%, 25%, 75% and 95% of the games are at most this long.",
    "min, max": "The shortest and the longest game, in turns.",
    "share": "count / all games: the share of games in which a sequence was completed.",
    "decided": "Games with a winner (all but the draws). In First sequence: games with a first sequence that "
    "had a winner.",
    "converted": "Games won by the team that completed the first sequence.",
    "conversion_rate": "converted / count: how often the team that completes the first sequence goes on to win "
    "(a draw counts as not converted).",
    "mean_turn, median_turn": "Mean and median turn (counted from 1, passes included) on which the first "
    "sequence was completed.",
    "comebacks": "Of the decided games with a first sequence, the share that the team which completed the first "
    "sequence lost, with its 95% Wilson interval. Its games are First sequence's decided; conversion_rate counts "
    "the draws too, so the two need not add up to 100%.",
    "closing_turns": "Turns from the first sequence to the game's end (turns - first_sequence_turn: 0 when the "
    "first sequence ended the game), mean over the games with a first sequence, with its 95% t-interval.",
    "closing_turns_median": "The median of closing_turns: half the games with a first sequence end within this "
    "many turns of it.",
    "lead": "The team with strictly the most sequences; while two teams share the most, no team holds it.",
    "lead_changes": "Times per game the lead passed from one team to another, mean over the games that recorded "
    "them, with its 95% t-interval. A change is counted when a team takes the lead and the team that last held it "
    "was another: the first lead is no change, nor is a tie, nor a team retaking the lead it held before a tie.",
    "lead_changed": "The share of the games (that recorded lead changes) in which the lead changed at least once, "
    "with its 95% Wilson interval.",
    "chi-square": "A test of whether the teams' win counts differ more than luck explains, against equal counts "
    "(decided / teams each).",
    "statistic": "The chi-square statistic: the sum over teams of (wins - expected)² / expected, with expected "
    "= decided / teams. 0 means exactly equal.",
    "dof": "Degrees of freedom of the chi-square test: teams - 1.",
    "p_value": f"The probability of a difference at least this large if there were none (equal teams; team 0 "
    f"winning exactly its fair share). Below 0.05: hardly luck. Printed as {P_FLOOR_TEXT} when below "
    f"1e-300, where the computed value underflows to 0: it is tiny, not zero.",
    "decided_share": "A team's share of the decided games (wins / decided), with Goodman's simultaneous 95% interval.",
    "max_gap": "The largest gap between two teams' shares of the decided games, in percentage points. Its "
    "interval allows for the largest gap's upward bias: the range of gaps Goodman's simultaneous "
    "intervals allow (two teams: twice the advantage's interval).",
    "fair": f"In the compensation study: a setting is fair when the 95% interval of team 0's advantage lies "
    f"within an equivalence margin (±{100 * FAIR_BAND['casual']:g} pp for random and greedy play, "
    f"±{100 * FAIR_BAND['strong']:g} pp with a lookahead; three teams: the largest gap's upper bound "
    "too), not when the edge is zero. The line under First-mover advantage says so.",
    "first mover": "The seat that moves first: seat 0, playing for team 0.",
    "fair_share": "1 / teams: team 0's share of the decided games if moving first made no difference.",
    "advantage": "win_rate - fair_share, in percentage points: +2.36 pp means team 0 wins 52.36% of the decided "
    "games where 50% would be fair.",
    "relative_advantage": "win_rate / fair_share - 1: team 0's edge as a share of its fair share, comparable "
    "between two and three teams (+4.7%: team 0 wins 4.7% more decided games than its fair "
    "share; 52.36% against 50%, or 34.9% against 33.3%).",
    "balance": "1 - the largest gap between two teams' win rates, over all games (draws count as games not won): 1 "
    "means every team wins equally often. Its interval allows for the largest gap's upward bias (the "
    "range of gaps the teams' simultaneous 95% intervals allow; with two teams, twice the advantage's).",
    "balance_decided": "balance over the decided games only: 1 - the largest gap between two teams' shares of the "
    "games that have a winner, so stalemates do not shrink the gaps.",
    "pp": "Percentage points: the difference of two percentages (52.36% - 50.00% = +2.36 pp).",
    "line-up": "Which player plays each seat. Mixed: the teams play different players, so a team's results mix "
    "player strength and seat order.",
    "position": "A place in the line-up as given to --policy (0 = the first player listed), whichever seat it "
    "held in a game.",
    "draws": "Games without a winner.",
    "score": "(wins + draws / teams) / games: the share of the games a player won, a draw counting as an equal "
    "share for every team. 50% against one other team is an even match.",
    "one_eyed": "One-eyed Jacks played per game by the team (each removes an opponent's chip).",
    "two_eyed": "Two-eyed Jacks played per game by the team (each places a chip on any empty cell).",
    "jacks": "one_eyed + two_eyed.",
    "sequences": "Sequences the team holds at the end of a game.",
    "chips": "The team's chips on the board at the end of a game.",
    "dead_swaps": "Dead cards swapped per game (a card whose two cells are both covered may be discarded and "
    "replaced).",
    "reshuffles": "Times per game the discard pile was shuffled into a new draw pile.",
    "passes": "Turns per game in which the seat had no legal play (they count as turns).",
    "note": "A caveat under a section or at the end of a configuration: why a number is undefined, a rough "
    "approximation, a mixed line-up.",
    UNDEFINED: "A number undefined for these games (for example no decided game); a note says why. null in "
    "JSON, empty in CSV.",
    "section, metric, key, value, ci_low, ci_high, text": "Columns. In a section of single numbers, metric names "
    "a number and value is it. --format csv has one row per number (after the configuration columns): "
    "section and metric name it, key is its team, seat or outcome, value has full precision (counts as "
    "integers), ci_low and ci_high are its 95% interval, and text is the value as the tables print it (a "
    "p-value that underflowed reads 0.0 in value and < 1e-300 in text). A note is a row of section notes "
    "whose metric is the section it is printed under (note for a general one) and whose text is the note.",
}
"""What every term the report prints means, in report order: term (or comma-separated terms) -> meaning.

The one source of the glossary: the table of docs/guide/reports.md, 'Glossary' is
``simkit.presentation.render.glossary_markdown()``, and ``simkit report --explain`` prints it.
"""


def glossary_entry(term: str) -> str | None:
    """The meaning of a printed term (a `GLOSSARY` key or one of a key's comma-separated terms), else None."""
    if term in GLOSSARY:
        return GLOSSARY[term]
    for key, meaning in GLOSSARY.items():
        if term in key.split(", "):
            return meaning
    return None
