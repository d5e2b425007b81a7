"""The Intercontinental facts file (engine/variants/intercontinental_facts.toml)
against what the rule text (v1.1.2) states: counts, ownership, the §3 colour
group assignment, affiliates' sponsors and the §5.4 abbreviations."""

from __future__ import annotations

import tomllib
from collections import Counter
from collections.abc import Iterator
from importlib import resources
from pathlib import Path

import pytest

from engine.variant_file import shipped_variants
from engine.variants.intercontinental.abbreviations import AbbreviationError, abbreviate
from engine.variants.intercontinental.facts import THEATRES, Facts, load_facts

VECTORS = tomllib.loads(
    (Path(__file__).parent / "data" / "intercontinental_abbreviations.toml").read_text("utf-8")
)["vector"]

GROUPS = ("Blue", "Teal", "Green", "Olive", "Yellow", "Red", "Maroon", "Violet")  # §1.2


@pytest.fixture(scope="module")
def facts() -> Facts:
    return load_facts()


def raw_text() -> str:
    resource = resources.files("engine") / "variants" / "intercontinental_facts.toml"
    return resource.read_text(encoding="utf-8")


# --- counts -----------------------------------------------------------------

def test_the_counts_of_section_2(facts: Facts) -> None:
    assert len(facts.powers) == 32
    assert len(facts.minors) == 48
    assert len(facts.affiliates) == 58
    assert len(facts.supply_centres) == len(set(facts.supply_centres)) == 180
    assert sum(len(power.units) for power in facts.powers.values()) == 74
    stated = facts.stated_counts
    assert stated["supply_centres"].low == 180
    assert stated["major_home_centres"].low == 74
    assert stated["minor_neutrals"].low == len(facts.minors)
    assert stated["affiliates"].low == len(facts.affiliates)
    assert stated["major_powers"].low == len(facts.powers)


def test_minors_per_region_as_stated_except_asia(facts: Facts) -> None:
    per_region = Counter(minor.region for minor in facts.minors)
    for region in ("Africa", "Europe", "Americas"):
        assert per_region[region] == facts.stated_counts[f"minors_{region.lower()}"].low == 13
    # §7.4 says 13 but its table lists 9, and only 9 make §7.0's 48: recorded.
    assert per_region["Asia"] == 9
    assert facts.stated_counts["minors_asia"].low == 13
    assert any("7.4" in d.sections for d in facts.discrepancies)


def test_affiliates_per_colour_within_the_stated_ranges(facts: Facts) -> None:
    for colour in (*GROUPS, "Orange"):
        fixed = sum(1 for a in facts.affiliates if a.colour == colour)
        # Special affiliates (§8.10) count for a colour only when their power has it.
        maybe = sum(1 for a in facts.affiliates
                    if a.colour == "sponsor" and colour in a.possible_sponsors)
        stated = facts.stated_counts[f"affiliates_{colour.lower()}"]
        assert (fixed, fixed + maybe) == (stated.low, stated.high), colour
    special = [a for a in facts.affiliates if a.section == "8.10"]
    assert len(special) == facts.stated_counts["affiliates_special"].low == 3


# --- groups, theatres, assignment -------------------------------------------

def test_eight_groups_with_their_preassigned_powers(facts: Facts) -> None:
    assert tuple(facts.groups) == GROUPS
    preassigned = [(group.name, theatre, code) for group in facts.groups.values()
                   for theatre, code in group.preassigned.items()]
    assert len(preassigned) == facts.stated_counts["preassigned_powers"].low == 17
    assert all(group.preassigned for group in facts.groups.values())  # "at least one" (§3.1)
    for group, theatre, code in preassigned:
        power = facts.powers[code]
        assert power.fixed and power.groups == (group,), code
        assert power.theatre == theatre, code
    # and every fixed power is one of them
    fixed = {code for code, power in facts.powers.items() if power.fixed}
    assert fixed == {code for _, _, code in preassigned}


def test_eight_majors_per_theatre(facts: Facts) -> None:
    assert Counter(power.theatre for power in facts.powers.values()) == dict.fromkeys(THEATRES, 8)


def test_power_codes_are_two_letters_and_names_unique(facts: Facts) -> None:
    assert all(len(code) == 2 and code.isupper() for code in facts.powers)
    assert len({power.name for power in facts.powers.values()}) == 32


def test_section_3_rules_agree_with_section_6(facts: Facts) -> None:
    ruled = Counter(code for rule in facts.assignment_rules for code in rule.powers)
    free = {code for code, power in facts.powers.items() if not power.fixed}
    assert ruled == dict.fromkeys(free, 1)
    for rule in facts.assignment_rules:
        assert not set(rule.never) & set(rule.groups)
        for code in rule.powers:
            power = facts.powers[code]
            assert power.theatre == rule.theatre, code
            assert set(power.groups) == set(rule.groups), code
    assert "Maroon" in next(r.never for r in facts.assignment_rules if r.powers == ("IR",))


def assignments(facts: Facts) -> Iterator[dict[str, str]]:
    """Every way to give the free powers a group (backtracking): each power a
    group its §3 rule allows, and each group exactly one power per theatre."""
    taken = {(group.name, theatre) for group in facts.groups.values()
             for theatre in group.preassigned}
    free = [rule_power for rule in facts.assignment_rules for rule_power in
            ((code, rule) for code in rule.powers)]
    chosen: dict[str, str] = {}

    def place(index: int) -> Iterator[dict[str, str]]:
        if index == len(free):
            yield dict(chosen)
            return
        code, rule = free[index]
        theatre = facts.powers[code].theatre
        for group in rule.groups:
            if group in rule.never or (group, theatre) in taken:
                continue
            taken.add((group, theatre))
            chosen[code] = group
            yield from place(index + 1)
            taken.discard((group, theatre))
            del chosen[code]

    yield from place(0)


def test_section_3_can_be_satisfied(facts: Facts) -> None:
    first = next(assignments(facts))
    groups = {code: power.groups[0] for code, power in facts.powers.items() if power.fixed}
    groups |= first
    per_group = Counter(groups.values())
    assert per_group == dict.fromkeys(GROUPS, 4)
    for group in GROUPS:
        theatres = {facts.powers[c].theatre for c, g in groups.items() if g == group}
        assert theatres == set(THEATRES), group


@pytest.mark.slow
def test_every_assignment_gives_9_or_10_first_spring_dp(facts: Facts) -> None:
    # §11.1: 1 DP per centre, at most 3 per power; "either 9 or 10 DP" at the start.
    dp = {code: min(3, len(power.units)) for code, power in facts.powers.items()}
    fixed = {code: power.groups[0] for code, power in facts.powers.items() if power.fixed}
    stated = facts.stated_counts["first_spring_dp"]
    count = 0
    for chosen in assignments(facts):
        count += 1
        totals = Counter[str]()
        for code, group in (fixed | chosen).items():
            totals[group] += dp[code]
        assert stated.low <= min(totals.values()) <= max(totals.values()) <= stated.high
    # Africa 3!, Europe 2!, Americas 2 x 4!, Asia 4 x 4!
    assert count == 6 * 2 * 48 * 96


# --- centres and units ------------------------------------------------------

def test_every_centre_has_one_owner_and_the_list_is_their_union(facts: Facts) -> None:
    owners = facts.centre_owners()
    assert {name: who for name, who in owners.items() if len(who) > 1} == {}
    assert set(owners) == set(facts.supply_centres)


def test_units_stand_in_centres_and_only_fleets_have_coasts(facts: Facts) -> None:
    centres = set(facts.supply_centres)
    units = [u for p in facts.powers.values() for u in p.units]
    units += [m.unit for m in facts.minors] + [a.unit for a in facts.affiliates]
    assert len(units) == 180
    for unit in units:
        assert unit.centre in centres
        assert unit.coast is None or unit.unit == "F", unit
    coasts = {u.centre: u.coast for u in units if u.coast}
    assert coasts == {"Panama City": "north", "St. Petersburg": "south",
                      "Comayagua": "north", "Managua": "west"}


def test_two_or_three_homes_per_power(facts: Facts) -> None:
    stated = facts.stated_counts["homes_per_power"]
    sizes = {len(power.units) for power in facts.powers.values()}
    assert (min(sizes), max(sizes)) == (stated.low, stated.high)


def test_the_texts_examples_agree_with_the_lists(facts: Facts) -> None:
    """Units and owners that §1.3, §9.1, §11.2-§11.4 mention in passing."""
    units = {u.centre: u.unit for p in facts.powers.values() for u in p.units}
    units |= {m.centre: m.unit.unit for m in facts.minors}
    units |= {a.centre: a.unit.unit for a in facts.affiliates}
    sponsor = {a.centre: a.sponsor for a in facts.affiliates}
    # §11.4's orders, by abbreviation, with the unit type they are given
    for abbreviation, unit in [("Irku", "A"), ("Yaku", "A"), ("Peki", "A"), ("Osak", "F"),
                               ("Edo", "F"), ("Mukd", "A"), ("Urga", "A"), ("Hans", "F"),
                               ("Urum", "A")]:
        name = next(n for n, a in facts.abbreviations.items() if a == abbreviation)
        assert units[name] == unit, abbreviation
    assert sponsor["Mukden"] == sponsor["Urga"] == "Yellow"      # §11.4.1
    assert "Violet" in facts.powers["JA"].groups                  # §11.4.1
    assert sponsor["Dublin"] == "Blue" and units["Dublin"] == "F"  # §11.3 examples
    assert units["Oporto"] == "F"
    assert sponsor["Guryev"] == "Olive"                           # §11.2, §9.1
    assert "Rostov-on-Don" in facts.powers["RU"].homes
    assert "Halifax" in facts.powers["CA"].homes                  # §9.1
    assert "Stockholm" in {m.centre for m in facts.minors}        # §9.1
    assert sponsor["Austin"] == sponsor["New Orleans"] == "Violet"  # §1.3 figure


def test_affiliate_sponsors(facts: Facts) -> None:
    for affiliate in facts.affiliates:
        if affiliate.sponsor is not None:
            assert affiliate.sponsor in facts.groups
            assert affiliate.colour == affiliate.sponsor
        else:
            # follows a major power: it can be sponsored by exactly that power's groups
            power = facts.powers[affiliate.sponsor_follows or ""]
            assert set(affiliate.possible_sponsors) == set(power.groups), affiliate.centre
    follows = {a.centre: a.sponsor_follows for a in facts.affiliates if a.sponsor_follows}
    assert follows == {"Amsterdam": "DU", "Boma": "DU", "Elmina": "DU", "Paramaribo": "DU",
                       "Chihuahua": "ME", "Oaxaca": "ME", "Muscat": "ZA"}
    assert any("8.10" in d.sections and "Muscat" in d.fact for d in facts.discrepancies)


def test_dutch_east_indies_keep_orange(facts: Facts) -> None:
    coloured = {code: p.map_colour for code, p in facts.powers.items() if p.map_colour}
    assert coloured == {"DU": "Orange"}
    assert {a.colour for a in facts.affiliates if a.sponsor_follows == "DU"} == {"Orange"}


def test_russia_theatre_discrepancy_recorded(facts: Facts) -> None:
    assert facts.powers["RU"].theatre == "Europe"
    assert any("6.26" in d.sections for d in facts.discrepancies)


# --- map facts from §5 ------------------------------------------------------

def test_antipodal_seas_and_suez(facts: Facts) -> None:
    assert facts.antipodal_seas == ("Palmyra", "Tuamotu", "Rawaki", "Lolelaplap")
    assert all(facts.other_locations[sea].kind == "sea" for sea in facts.antipodal_seas)
    assert facts.wrap_adjacent == (("Palmyra", "Rawaki"),)
    assert facts.suez.canal_opens == 1870
    assert facts.suez.coasts == {"north": "East Mediterranean Sea", "south": "Red Sea"}
    assert all(sea in facts.other_locations for sea in facts.suez.coasts.values())


# --- abbreviations (§5.4) ---------------------------------------------------

@pytest.mark.parametrize("vector", VECTORS, ids=[v["label"] for v in VECTORS])
def test_abbreviation_vectors(vector: dict[str, str]) -> None:
    assert abbreviate(vector["label"]) == vector["abbreviation"]


def test_vectors_hold_every_example_of_section_5_4() -> None:
    examples = {v["abbreviation"] for v in VECTORS if v["source"] == "5.4"}
    assert examples == {"EMS", "Anka", "SyrD", "Zaka", "Suez", "Van", "Azov"}


def test_too_short_a_name_has_no_abbreviation() -> None:
    with pytest.raises(AbbreviationError):
        abbreviate("Ob")


def test_abbreviations_in_the_file_are_the_rubric_and_unique(facts: Facts) -> None:
    locations = [*facts.supply_centres, *facts.other_locations]
    assert sorted(facts.abbreviations) == sorted(locations)
    for name in locations:
        assert facts.abbreviations[name] == abbreviate(facts.location_label(name)), name
    # Orders are typed in any case, so unique ignoring case; and none may take
    # the two abbreviations §11.4 uses for places it does not name.
    folded = Counter(a.casefold() for a in facts.abbreviations.values())
    folded.update(a.casefold() for a in facts.unnamed_abbreviations)
    assert [a for a, n in folded.items() if n > 1] == []


# --- coordinates (NOT from the rules) and the header -------------------------

def test_every_location_has_plausible_coordinates(facts: Facts) -> None:
    assert set(facts.coordinates) == set(facts.abbreviations)
    for lat, lon in facts.coordinates.values():
        assert -90 <= lat <= 90 and -180 <= lon <= 180
    # a few sanity points: the hemisphere signs are the right way round
    assert facts.coordinates["Cape Town"][0] < 0 < facts.coordinates["Cape Town"][1]
    assert facts.coordinates["Honolulu"][1] < 0 < facts.coordinates["Honolulu"][0]


def test_file_states_licence_and_that_coordinates_are_not_rules() -> None:
    text = raw_text()
    header = text.split("[source]")[0]
    assert "W. Alex Ronke" in header and "CC BY-SA 4.0" in header
    assert "shared\n# under the same licence" in header
    # the comment right above the table says where the numbers come from
    above_table = text.split("\n[coordinates]\n")[0][-700:]
    assert "NOT FROM THE RULES" in above_table


def test_the_facts_file_is_not_offered_as_a_variant() -> None:
    assert "intercontinental_facts" not in shipped_variants()
