"""What a run is: its identity in ``run.json`` and the grouping of repetitions by it.

The harness writes ``"identity": {"command", "binding", "workload", "scenario": {...}, "key"}`` once when
a phase starts; ``key`` is a SHA-256 of the other four. Runs are repetitions of one scenario only when
they share a label *and* an identity: a load and a run, or runs of another binding, workload or scenario
property under one label are shown apart, each under the label with what sets it apart added.

Older run folders have no identity: they are compared on command, binding name and workload class
(the label is the same by construction), and the report says so once.
"""

from __future__ import annotations

import dataclasses
import logging
import re
from dataclasses import dataclass
from pathlib import Path

from .errors import RunFolderError

log = logging.getLogger(__name__)

COMMANDS = ("load", "run")
_KEY = re.compile(r"[0-9a-fA-F]{64}")
# At most this many differences are put into a scenario's name; the warning lists them all.
NAMED_DIFFERENCES = 3


@dataclass(frozen=True)
class Identity:
    """A run's identity; ``recorded`` is False for an older run.json (built from command, binding, workload)."""

    command: str | None
    binding: str | None
    workload: str | None
    scenario: tuple = ()  # sorted (property, value) pairs
    key: str | None = None
    recorded: bool = True

    def fields(self) -> dict:
        """Everything that may tell two identities apart, by name."""
        return {"command": self.command, "binding": self.binding, "workload": self.workload,
                **dict(self.scenario)}

    def same_as(self, other: "Identity") -> bool:
        if self.recorded and other.recorded:
            return self.key == other.key if self.key and other.key else self.fields() == other.fields()
        return (self.command, self.binding, self.workload) == (other.command, other.binding, other.workload)


def read_identity(meta: dict, path: Path) -> Identity:
    """``run.json``'s identity, checked field by field; the fallback when it has none."""
    value = meta.get("identity")
    if value is None:
        binding = meta.get("binding")
        return Identity(command=_text(meta.get("command")),
                        binding=_text(binding.get("name") if isinstance(binding, dict) else binding),
                        workload=_text(meta.get("workload")), recorded=False)
    if not isinstance(value, dict):
        raise RunFolderError(path, f"identity is not an object: {value!r}")
    if value.get("command") not in COMMANDS:
        raise RunFolderError(path, f"identity.command is not one of {', '.join(COMMANDS)}: {value.get('command')!r}")
    for name in ("binding", "workload"):
        if not isinstance(value.get(name), str) or not value[name]:
            raise RunFolderError(path, f"identity.{name} is missing or not a name: {value.get(name)!r}")
    scenario = value.get("scenario", {})
    if not isinstance(scenario, dict):
        raise RunFolderError(path, f"identity.scenario is not an object: {scenario!r}")
    for name, text in scenario.items():
        if not isinstance(text, str):
            raise RunFolderError(path, f"identity.scenario.{name} is not a string: {text!r}")
    key = value.get("key")
    if key is not None and (not isinstance(key, str) or not _KEY.fullmatch(key)):
        raise RunFolderError(path, f"identity.key is not a hex SHA-256: {key!r}")
    return Identity(command=value["command"], binding=value["binding"], workload=value["workload"],
                    scenario=tuple(sorted(scenario.items())), key=key)


def _text(value) -> str | None:
    return value if isinstance(value, str) and value else None


@dataclass(frozen=True)
class Split:
    """One label whose runs have more than one identity: the names they are shown under and why."""

    label: str
    names: list  # scenario names, one per identity, in the order the runs were given
    differences: list  # "command: load, run", one per differing field

    def sentence(self) -> str:
        shown = " and ".join(f"'{name}'" for name in self.names)
        return (f"the runs labelled '{self.label}' are not repetitions of one scenario (they differ in "
                f"{'; '.join(self.differences)}): shown apart as {shown}")


def separate(runs: list, identity_of=lambda run: run.identity) -> tuple[list, list[Split]]:
    """Runs with the scenario names they are reported under: runs sharing a label but not an identity
    get the label with what sets them apart (``geo0s [load]``, ``geo0s [run]``). Returns the runs (as
    given, renamed where needed) and one Split per label that was divided, each logged as a warning."""
    older = [run for run in runs if not identity_of(run).recorded]
    if older:
        log.warning("%d run folder(s) have no identity in run.json (written by an older harness): their "
                    "repetitions are grouped by command, binding, workload and label", len(older))
    labels = list(dict.fromkeys(run.scenario for run in runs))
    taken = set(labels)
    names: dict[int, str] = {}
    splits = []
    for label in labels:
        members = [index for index, run in enumerate(runs) if run.scenario == label]
        groups: list[list[int]] = []
        for index in members:
            identity = identity_of(runs[index])
            home = next((group for group in groups if _same(identity_of(runs[group[0]]), identity,
                                                          [identity_of(runs[i]) for i in members])), None)
            if home is None:
                groups.append([index])
            else:
                home.append(index)
        if len(groups) == 1:
            continue
        identities = [identity_of(runs[group[0]]) for group in groups]
        differing = _differing_fields(identities)
        group_names = []
        for number, (group, identity) in enumerate(zip(groups, identities), start=1):
            name = _name(label, identity, differing, number, taken)
            taken.add(name)
            group_names.append(name)
            for index in group:
                names[index] = name
        split = Split(label=label, names=group_names,
                      differences=[f"{field}: {', '.join(_shown(identity.fields().get(field)) for identity in identities)}"
                                   for field in differing] or ["their identity keys only"])
        log.warning("%s", split.sentence())
        splits.append(split)
    renamed = [dataclasses.replace(run, scenario=names[index]) if index in names else run
               for index, run in enumerate(runs)]
    return renamed, splits


def _same(first: Identity, second: Identity, label_members: list[Identity]) -> bool:
    # When any run under the label is an older one, the whole label is compared the older way.
    if all(identity.recorded for identity in label_members):
        return first.same_as(second)
    return dataclasses.replace(first, recorded=False).same_as(dataclasses.replace(second, recorded=False))


def _differing_fields(identities: list[Identity]) -> list[str]:
    compare_all = all(identity.recorded for identity in identities)
    fields = ["command", "binding", "workload"]
    if compare_all:
        fields += sorted({name for identity in identities for name, _ in identity.scenario})
    return [field for field in fields if len({identity.fields().get(field) for identity in identities}) > 1]


def _shown(value) -> str:
    return "unset" if value is None else str(value)


def _name(label: str, identity: Identity, differing: list[str], number: int, taken: set) -> str:
    parts = []
    for field in differing[:NAMED_DIFFERENCES]:
        value = identity.fields().get(field)
        if field in ("command", "binding"):
            parts.append(_shown(value))
        elif field == "workload":
            parts.append(_shown(value).rsplit(".", 1)[-1])
        else:
            parts.append(f"{field}={_shown(value)}")
    name = f"{label} [{', '.join(parts)}]" if parts else f"{label} [#{number}]"
    if name in taken:
        name = f"{name} #{number}"
    return name
