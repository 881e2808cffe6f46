"""A condition given in any case takes the ruleset's own spelling: the engine looks a name up as
typed first, which is right only if no ruleset names two conditions that differ in case alone."""

from engine import apply, new_fight
from engine import commands as C
from engine.ruleset import REGISTRY


def test_no_ruleset_names_two_conditions_differing_in_case_alone() -> None:
    for rid, rs in REGISTRY.items():
        lowered = [name.lower() for name in rs.conditions]
        assert len(lowered) == len(set(lowered)), rid


def test_a_condition_typed_in_another_case_takes_the_rulesets_spelling() -> None:
    f = new_fight("d20", seed=1)
    f, _ = apply(f, C.AddCombatant("Orc"))
    f, ev = apply(f, C.AddCondition("c1", "pRONE"))
    assert f.get("c1").conditions[0].name == "Prone"
    f, _ = apply(f, C.AddCondition("c1", "Gloomy"))
    assert [c.name for c in f.get("c1").conditions] == ["Prone", "Gloomy"]
