"""/army template and /army sample: a newcomer gets a valid army list from Discord."""

from __future__ import annotations

import json

import pytest
import yaml

from bot.presentation.rosters import example_roster, roster_template
from rules_core import registry
from tools.harness import Harness


async def campaign_of(aide: Harness, ruleset: str) -> None:
    """A campaign of this ruleset in #general with Alice and Bob on sides."""
    await aide.slash(aide.gm, "campaign create", name="First Evening", ruleset=ruleset)
    await aide.slash(aide.alice, "campaign join", side="North")
    await aide.slash(aide.bob, "campaign join", side="South")


@pytest.mark.parametrize("ruleset", [r.id for r in registry.all_rulesets(include_unlisted=True)])
def test_every_template_is_an_army_its_ruleset_accepts(ruleset: str) -> None:
    found = registry.get(ruleset)
    text = roster_template(found)
    assert found.roster_schema.validate(yaml.safe_load(text)) == []
    assert found.roster_schema.validate(example_roster(found.roster_schema)) == []
    for spec in found.roster_schema.unit_fields:
        assert f"#   {spec.name} (" in text


async def test_template_downloaded_filled_and_imported(aide: Harness) -> None:
    await campaign_of(aide, "tree_of_battles")
    sent = await aide.slash(aide.alice, "army template")
    assert sent.ephemeral and "every field explained" in sent.text
    [file] = sent.files
    assert file.filename == "tree_of_battles-army-template.yaml"
    text = file.data.decode()
    assert "#   grade (optional): one of A, B, C, D — A best to D worst (default C)" in text
    assert "# leaders (optional): who commands" in text
    imported = await aide.slash(aide.alice, "army import", file=aide.upload("a.yaml", text))
    assert imported.content == f"{aide.alice.mention} imported **My Army** (1 units)."


SHIPPED = ["tree_of_battles", "hail_caesar", "heroic_age", "pike_and_shot", "impetus", "skirmish"]


@pytest.mark.parametrize("ruleset", SHIPPED)
async def test_each_template_imports_exactly_as_given(aide: Harness, ruleset: str) -> None:
    await campaign_of(aide, ruleset)
    [file] = (await aide.slash(aide.alice, "army template")).files
    given = yaml.safe_load(file.data)
    assert len(given["units"]) == 1  # one unit with the usual choices, not every field set
    imported = await aide.slash(aide.alice, "army import", file=aide.upload("a.yaml", file.data))
    assert imported.content.endswith(f"imported **{given['name']}** (1 units)."), imported.text
    [back] = (await aide.slash(aide.alice, "army export", name=given["name"])).files
    assert yaml.safe_load(back.data) == given


def test_the_template_men_at_arms_keep_their_harness() -> None:
    schema = registry.get("tree_of_battles").roster_schema
    rules = registry.get("tree_of_battles").rules
    assert rules is not None
    [entry] = yaml.safe_load(roster_template(registry.get("tree_of_battles")))["units"]
    unit = rules.unit_from_roster(entry, "a1", "a", "a_main")
    assert unit.profile["armour"] == "full_harness"
    assert set(entry) < {f.name for f in schema.unit_fields}  # most fields left to the type


async def test_sample_armies_downloaded_then_one_loaded(aide: Harness) -> None:
    await campaign_of(aide, "hail_caesar")
    offered = await aide.autocomplete(aide.alice, "army sample", "name", name="leg")
    assert [c["value"] for c in offered] == ["Legio IX (sample)"]
    sent = await aide.slash(aide.alice, "army sample")
    assert sent.ephemeral and "Legio IX (sample)" in sent.text
    assert sorted(f.filename for f in sent.files) == ["arverni-sample.json", "legio-ix-sample.json"]
    roman = next(f for f in sent.files if f.filename.startswith("legio"))
    assert json.loads(roman.data)["name"] == "Legio IX (sample)"
    loaded = await aide.slash(aide.alice, "army sample", name="legio ix (sample)", load=True)
    assert not loaded.ephemeral
    assert loaded.content == f"{aide.alice.mention} imported **Legio IX (sample)** (6 units)."


async def test_sample_refusals_are_private_and_say_what_is_accepted(
    sketch: None, aide: Harness
) -> None:
    await campaign_of(aide, "sketch")
    none = await aide.slash(aide.alice, "army sample")
    assert none.ephemeral and "ships no sample armies" in none.text and not none.files
    wrong = await aide.slash(aide.alice, "army sample", name="Nope", load=True)
    assert wrong.ephemeral and "No sample army **Nope**" in wrong.text
    unnamed = await aide.slash(aide.alice, "army sample", load=True)
    assert unnamed.ephemeral and "name:<army> load:true" in unnamed.text
    watcher = await aide.slash(aide.outsider, "army template")
    assert watcher.ephemeral and watcher.files


async def test_campaign_create_says_which_rulesets_cannot_fight_yet(
    sketch: None, aide: Harness
) -> None:
    create = next(c for c in aide.synced_commands() if c["name"] == "campaign")
    sub = next(o for o in create["options"] if o["name"] == "create")
    offered = {c["value"]: c["name"] for o in sub["options"] for c in o.get("choices") or []}
    assert offered["sketch"] == "Sketch (test) (no battles yet)"
    assert offered["tree_of_battles"] == "The Tree of Battles"
    assert offered["heroic_age"] == "Heroic Age (Dark-Age warbands)"  # it fights now
    assert offered["pike_and_shot"] == "Pike and Shot (brigade level)"  # it fights now
    assert offered["impetus"] == "Impetus 2"  # and so does Impetus
    created = await aide.slash(aide.gm, "campaign create", name="Later", ruleset="sketch")
    assert "cannot fight battles yet" in created.embeds[0]["description"]


@pytest.mark.parametrize(
    "ruleset", ["tree_of_battles", "hail_caesar", "heroic_age", "pike_and_shot"]
)
async def test_an_exported_army_is_imported_back_unchanged(aide: Harness, ruleset: str) -> None:
    await campaign_of(aide, ruleset)
    [sample, *_] = registry.get(ruleset).rules.sample_armies()
    await aide.slash(aide.alice, "army sample", name=str(sample["name"]), load=True)
    offered = await aide.autocomplete(aide.bob, "army export", "name", name="")
    assert [c["value"] for c in offered] == [sample["name"]]
    sent = await aide.slash(aide.bob, "army export", name=str(sample["name"]).upper())
    assert sent.ephemeral and "`/army import`" in sent.text
    [file] = sent.files
    assert file.filename.endswith(".yaml")
    assert yaml.safe_load(file.data) == json.loads(json.dumps(sample))
    back = await aide.slash(aide.alice, "army import", file=aide.upload(file.filename, file.data))
    units = len(sample["units"])
    assert back.content == f"{aide.alice.mention} updated **{sample['name']}** ({units} units)."
    again = await aide.slash(aide.alice, "army export", name=str(sample["name"]))
    assert again.files[0].data == file.data  # the import kept the list exactly


async def test_export_refusals_are_private(aide: Harness) -> None:
    await campaign_of(aide, "skirmish")
    missing = await aide.slash(aide.alice, "army export", name="Nope")
    assert missing.ephemeral and "no army called **Nope**" in missing.text
    assert not missing.files
    stranger = await aide.slash(aide.outsider, "army export", name="Nope")
    assert stranger.ephemeral and "/campaign join" in stranger.text
