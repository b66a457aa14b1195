#!/usr/bin/env python3
"""bin/test docs: the READMEs checked against the software, as a new user would try them.

  tools/docscheck.py               run every command the READMEs show that can run here (at small
                                   sizes), check every path and property name they mention, and
                                   re-run every marked block and compare its output
  tools/docscheck.py --regenerate  rewrite the marked blocks with what their commands print now
  tools/docscheck.py --static      paths, names and marked-block headers only (no command runs)

Marked blocks (the line before a fenced block or a Markdown table):
  <!-- docs-check: COMMAND -->  the block is COMMAND's standard output, compared line by line
  <!-- docs-perf: COMMAND -->   a performance figure: its first line names the machine, its load and
                                COMMAND (written by --regenerate); the rest is COMMAND's output,
                                not compared (it varies), only regenerated
Every failure names the README and line. Standard library only: it runs before any venv exists.
"""
import argparse
import os
import platform
import re
import shlex
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MARKER = re.compile(r"^<!--\s*docs-(check|perf):\s*(.+?)\s*-->\s*$")
FENCE = re.compile(r"^(\s*)```(\w*)\s*$")
PERF_HEADER = re.compile(r"^# measured on .+ load average .+: (.+)$")

# Commands that cannot run on this machine (first match wins), with the reason printed for each.
SKIPS = [
    # First: a command that would reach past this machine never runs (no traffic to outside addresses).
    (r"\b(curl|wget)\b|https?://(?!127\.0\.0\.1|localhost)", "reaches the internet"),
    (r"^bin/test(\s*$|\s+all\b)", "the whole test suite (bin/test docs is part of it)"),
    (r"testcontainers:|bin/test mongodb", "needs Docker (real MongoDB through Testcontainers)"),
    (r"mongodb-geo|mongodb-async|mongodb://", "needs a MongoDB cluster"),
    (r"ansible-playbook", "needs lab racks or EC2 (ansible/check checks the playbooks offline)"),
    (r"^(cd ansible|\. \.venv/|python3 -m venv)", "ansible's own set-up (ansible/check makes its venv)"),
    (r"ansible-vault", "writes your Ansible vault (ansible-vault comes with ansible's venv)"),
    (r"^\./check\b", "ansible/check: about 50 minutes (bin/test ansible runs it)"),
    (r"^cat > ~/\.geoshard/|^EOF$|^ec2_cluster_|>\s*~/\.geoshard/", "writes your EC2 settings"),
    (r"results/runs/(?:[A-Z]\b|\s|$)", "reads run folders of your own"),
    (r"<[^>]+>", "has a placeholder to fill in"),
]

# Sizes and times made small enough for the suite: (pattern, replacement), applied in order.
SHRINK = [
    (r"geo\.scale=[0-9.]+", "geo.scale=0.001"),
    (r"ramp\.interval=\d+", "ramp.interval=2"),
    (r"ramp\.maxthreads=\d+", "ramp.maxthreads=6"),
    (r"stats\.warmup=\d+", "stats.warmup=1"),
    (r"^(bin/ycsb geo-cells --stats.*)$", r"\1 -p geo.scale=0.01 -p geo.cells.queries=2000"),
    (r"^(bin/ycsb bench postgis.*)$", r"\1 -p geo.scale=0.001 -p postgis.table=docs_bench -seconds 2 -warmup 1 -rounds 1"),
]

# Names under a module's prefix that the docs show on purpose though no module reads them.
NOT_PROPERTIES = {
    "status.intreval": "the README's example of a typo the harness refuses",
    "mongodb.shardKey": "binding-sync's example of a typo the binding refuses",
    "mongodb.driver.version": "a Maven property of the POM",
    "recordcont": "the README's example of a typo of YCSB's recordcount that the harness warns about",
    "key": "the placeholder of -p key=value",
    "NAME": "the placeholder of -p NAME= in the Testing section",
}
# Paths in another project's repository.
# Paths in other projects' trees that the READMEs cite as sources.
FOREIGN_PATHS = re.compile(r"^src/mongo/")  # MongoDB's source tree (mongodb/mongo)
# Tokens that look like repository paths but name what a run or a playbook makes.
MADE_AT_RUN_TIME = re.compile(
    r"^(results/(runs|reports|rack\d|study\d|[a-z]+\d)\b|dist/target/|\.pgdata|(.*/)?\.venv|\.check/|target/|"
    r"results/<|io/|merged/|report/|run-)")
FILE_SUFFIXES = (".py", ".md", ".yml", ".yaml", ".json", ".csv", ".txt", ".xml", ".java", ".properties",
                 ".hlog", ".png", ".gz", ".jsonl", ".zst", ".jsa", ".log", ".sh", ".tsv", ".control", ".cfg")


@dataclass
class Block:
    """A fenced block: its language, its lines with their README line numbers, and its marker."""
    readme: str
    fence_line: int
    lang: str
    lines: list = field(default_factory=list)  # (line number, text)
    marker: tuple = None  # (kind, command, line number) or None

    @property
    def end_line(self):
        """The closing fence's line (of a table: the line after it)."""
        return self.lines[-1][0] + 1 if self.lines else self.fence_line + 1


@dataclass
class Command:
    readme: str
    first: int
    last: int
    text: str


def parse(readme, text):
    """The fenced blocks of a README and the lines outside them, both with 1-based line numbers."""
    blocks, prose = [], []
    current, pending_marker = None, None
    for number, line in enumerate(text.splitlines(), 1):
        fence = FENCE.match(line)
        if current is not None and current.lang == "table":
            if line.startswith("|"):
                current.lines.append((number, line))
                continue
            blocks.append(current)
            current = None
        if current is not None:
            if fence and not fence.group(2):
                blocks.append(current)
                current = None
            else:
                current.lines.append((number, line))
            continue
        if fence:
            current = Block(readme, number, fence.group(2), marker=pending_marker)
            pending_marker = None
            continue
        if pending_marker and line.startswith("|"):  # a marked Markdown table: the marker is its "fence"
            current = Block(readme, pending_marker[2], "table", marker=pending_marker)
            current.lines.append((number, line))
            pending_marker = None
            continue
        marker = MARKER.match(line.strip())
        if marker:
            pending_marker = (marker.group(1), marker.group(2), number)
        elif line.strip():
            if pending_marker:
                raise ValueError(f"{readme}:{pending_marker[2]}: a docs-{pending_marker[0]} marker must be"
                                 " followed directly by a fenced block or a table")
            prose.append((number, line))
    if pending_marker:
        raise ValueError(f"{readme}:{pending_marker[2]}: a docs-{pending_marker[0]} marker at the end of the file")
    if current is not None and current.lang == "table":
        blocks.append(current)
    elif current is not None:
        raise ValueError(f"{readme}:{current.fence_line}: a fenced block that never closes")
    return blocks, prose


def commands(block):
    """The shell commands of a bash block: continuation lines joined, comments and blank lines dropped."""
    result, parts, first = [], [], None
    heredoc = None
    for number, line in block.lines:
        if heredoc is not None:  # a here-document's body belongs to the command that opened it
            parts.append(line)
            if line.strip() == heredoc:
                result.append(Command(block.readme, first, number, "\n".join(parts)))
                parts, first, heredoc = [], None, None
            continue
        stripped = line.strip()
        if not parts and (not stripped or stripped.startswith("#")):
            continue
        if first is None:
            first = number
        here = re.search(r"<<-?\s*'?(\w+)'?", line)
        if here:
            heredoc = here.group(1)
        if stripped.endswith("\\"):
            parts.append(line.rstrip()[:-1].rstrip())
            continue
        parts.append(line)
        if heredoc is None:
            result.append(Command(block.readme, first, number, " ".join(p.strip() for p in parts)))
            parts, first = [], None
    if parts:
        result.append(Command(block.readme, first, block.lines[-1][0], " ".join(p.strip() for p in parts)))
    return result


def skip_reason(command_text):
    for pattern, reason in SKIPS:
        if re.search(pattern, command_text.strip(), re.MULTILINE):
            return reason
    return None


def shrink(command_text):
    text = strip_comment(command_text)
    for pattern, replacement in SHRINK:
        text = re.sub(pattern, replacement, text)
    return text


def strip_comment(command_text):
    """The command without a trailing '# ...' comment (a '#' inside quotes stays)."""
    in_single = in_double = False
    for i, ch in enumerate(command_text):
        if ch == "'" and not in_double:
            in_single = not in_single
        elif ch == '"' and not in_single:
            in_double = not in_double
        elif ch == "#" and not in_single and not in_double and (i == 0 or command_text[i - 1].isspace()):
            return command_text[:i].rstrip()
    return command_text


def code_spans(prose):
    """(line, text) of every inline `code` span but the field names of a run folder's JSON files
    (a span right after `run.json` or `summary.json`: `observe.nodes` there is a field, not a property)."""
    for number, line in prose:
        for match in re.finditer(r"`([^`]+)`", line):
            if ".json`" not in line[max(0, match.start() - 25):match.start()]:
                yield number, match.group(1)


def code_texts(blocks, prose):
    """(line, text) of everything written as code: inline spans and the lines of fenced blocks."""
    yield from code_spans(prose)
    for block in blocks:
        if block.lang in ("java", "sql") or block.marker:
            continue  # another language's names, or a command's output
        yield from block.lines


PROPERTY = re.compile(r"(?<![\w./$-])([a-z][a-zA-Z0-9]*(?:\.(?:[a-zA-Z0-9_]+|<[^>]+>|\*))+)")


def mentioned_properties(texts, prefixes):
    """(line, name) of every dotted name under an owned prefix ('geo.', 'mongodb.', ...)."""
    for number, text in texts:
        for match in PROPERTY.finditer(text):
            name = match.group(1)
            if name.endswith(FILE_SUFFIXES) or not any(name.startswith(p) for p in prefixes):
                continue
            after = text[match.end():match.end() + 1]
            if after in ("/", "(") or text[max(0, match.start() - 1):match.start()] == "@":
                continue  # a path or a call, not a property
            yield number, name


# Where a name is given a value as a property: `-p NAME=` in anything written as code.
ASSIGNED = re.compile(r"(?:^|\s)-p\s+([A-Za-z_][\w.]*)=")
# YCSB's own names (threadcount, recordcount, readproportion: CoreWorkload's and Client's, read from the class
# path by KnownPropertyNames) have no prefix, so a plain word is only taken for one when it is written alone
# as code (`threadcount`, `threadcount=8`, a `threadcount=8` line of a -P file) and is close to one.
PLAIN_NAME = re.compile(r"^\s*([a-z][a-z0-9_]*)(?:\s*=.*)?$")


def assigned_properties(texts):
    """(line, name) of every property given a value with -p."""
    for number, text in texts:
        for match in ASSIGNED.finditer(text):
            yield number, match.group(1)


def plain_names(blocks, prose):
    """(line, word) of every inline code span, and every line of a fenced block, that is one plain word or
    word=value: where a README names YCSB's own properties (which have no prefix)."""
    texts = list(code_spans(prose))
    for block in blocks:
        if block.lang not in ("java", "sql") and not block.marker:
            texts.extend(block.lines)
    for number, text in texts:
        match = PLAIN_NAME.match(text)
        if match:
            yield number, match.group(1)


def misspelt(word, known):
    """The plain known name a word is a typo of (within a quarter of its letters, at least one), or None."""
    if word in known or word in NOT_PROPERTIES or len(word) < 5:
        return None  # a short word (`dd`, `db`) is too close to too much to be taken for a name
    plain = sorted(k for k in known if "." not in k and not k.endswith("*"))
    limit = max(1, len(word) // 4)
    # A word that extends a name or is cut from one (`targeted`, `tables`, `workloada`) is another word.
    close = [(edit_distance(word, k), k) for k in plain if abs(len(k) - len(word)) <= limit
             and not word.startswith(k) and not k.startswith(word)]
    close = [c for c in close if c[0] <= limit]
    return min(close)[1] if close else None


def edit_distance(a, b):
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j - 1] + (ca != cb), previous[j] + 1, current[j - 1] + 1))
        previous = current
    return previous[-1]


def property_known(name, known):
    if name in known:
        return True
    patterns = [k[:-1] for k in known if k.endswith("*")]
    if "<" in name:  # a name the user makes: mongodb.targeted.mongos.<shardId>
        stem = name[:name.index("<")]
        return any(stem.startswith(p) or p.startswith(stem) for p in patterns)
    if name.endswith(".*"):  # a whole family: ll.*, geo.cells.*
        stem = name[:-1]
        return any(k.startswith(stem) for k in known)
    return any(name.startswith(p) for p in patterns)


PATH = re.compile(r"(?<![\w.$/~:<-])((?:\./)?[A-Za-z0-9_][A-Za-z0-9_.-]*/[A-Za-z0-9_./-]*)")


def mentioned_paths(texts):
    for number, text in texts:
        for match in PATH.finditer(text):
            path = match.group(1).rstrip(".")
            following = text[match.end():match.end() + 1]
            if following in ("<", "*", "$", "{") or "//" in path:
                continue
            yield number, path


def path_exists(readme, path, roots):
    if MADE_AT_RUN_TIME.match(path.lstrip("./")):
        return True
    readme_dir = (ROOT / readme).parent
    for base in (ROOT, readme_dir):
        first = path.lstrip("./").split("/")[0]
        if (base / first).exists():
            if (base / path).exists():
                return True
    # Not a repository path at all (an alternative such as 'java|results', a unit as 'ops/s'):
    # only a token whose first part is a folder of the repository (or of the README's) counts.
    return not any((base / path.lstrip("./").split("/")[0]).is_dir() for base in (ROOT, readme_dir)) \
        or path.lstrip("./").split("/")[0] in roots


def readmes():
    """README.md, then every other README the repository keeps (found on disk outside a git checkout)."""
    listed = subprocess.run(["git", "ls-files", "README.md", "*/README.md"], cwd=ROOT,
                            capture_output=True, text=True).stdout.split()
    on_disk = [p for pattern in ("README.md", "*/README.md", "*/*/README.md") for p in ROOT.glob(pattern)
               if not {"target", ".venv", "node_modules", "runs", "reports"} & set(p.relative_to(ROOT).parts)]
    found = set(listed) | {str(p.relative_to(ROOT)) for p in on_disk}
    return sorted(found, key=lambda r: (r != "README.md", r))


def known_properties():
    classpath = (ROOT / "dist/target/classpath.txt").read_text().strip()
    out = subprocess.run(["java", "-cp", classpath, "org.geoshard.harness.config.KnownPropertyNames"],
                         capture_output=True, text=True, check=True).stdout
    return set(out.split())


class Report:
    def __init__(self):
        self.failures, self.skipped, self.ran = [], [], 0

    def fail(self, where, message):
        self.failures.append(f"{where}: {message}")
        print(f"FAIL {where}: {message}", file=sys.stderr)


def check_names(docs, report, known, prefixes):
    for readme, (blocks, prose) in docs.items():
        texts = list(code_texts(blocks, prose))
        for number, name in mentioned_properties(texts, prefixes):
            if name not in NOT_PROPERTIES and not property_known(name, known):
                report.fail(f"{readme}:{number}", f"property '{name}' is read by no module (not in any PropertyCatalog)")
        for number, name in assigned_properties(texts):
            if name not in NOT_PROPERTIES and not property_known(name, known):
                meant = misspelt(name, known)
                report.fail(f"{readme}:{number}", f"property '{name}' (given with -p) is read by no module and is not"
                            " one of YCSB's" + (f"; '{meant}'?" if meant else ""))
        for number, word in plain_names(blocks, prose):
            meant = misspelt(word, known)
            if meant:
                report.fail(f"{readme}:{number}", f"'{word}' is no property; YCSB's or geoshard's '{meant}'?")
        for number, path in mentioned_paths(texts):
            if not FOREIGN_PATHS.match(path) and not path_exists(readme, path, ()):
                report.fail(f"{readme}:{number}", f"path '{path}' does not exist in the repository")


def suites(bin_test_text):
    """The suites bin/test's case statement accepts (all but the catch-all)."""
    return {name for label in re.findall(r"^\s+([a-z0-9|]+)\)", bin_test_text, re.MULTILINE) for name in label.split("|")}


def check_lists(docs, report):
    """Lists the README keeps of things in the repository: every workload file in the layout table, every
    bin/test suite in the Testing section's one-suite line."""
    readme = "README.md"
    blocks, prose = docs.get(readme, ([], []))
    rows = [(n, line) for n, line in prose if line.startswith("| `workloads/` |")]
    if not rows:
        report.fail(readme, "the layout table has no row for `workloads/`")
    else:
        number, row = rows[0]
        for name in sorted(p.name for p in (ROOT / "workloads").iterdir() if p.is_file()):
            if f"`{name}`" not in row:
                report.fail(f"{readme}:{number}", f"the `workloads/` row does not name `{name}`")
    wanted = suites((ROOT / "bin/test").read_text()) - {"all"}
    lines = [(n, set(m.group(1).split("|"))) for n, line in prose for m in re.finditer(r"`bin/test ([a-z0-9]+(?:\|[a-z0-9]+)+)`", line)]
    if not lines:
        report.fail(readme, "no `bin/test a|b|...` line names the suites")
    for number, named in lines:
        if named != wanted:
            report.fail(f"{readme}:{number}", f"names the suites {'|'.join(sorted(named))}; bin/test has "
                                              f"{'|'.join(sorted(wanted))}")


def machine():
    cores = os.cpu_count()
    try:
        mem = int(re.search(r"MemTotal:\s+(\d+)", Path("/proc/meminfo").read_text()).group(1)) / 2**20
    except (OSError, AttributeError):
        mem = 0
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    return f"{platform.node() or 'this machine'} ({cores} cores, {mem:.0f} GiB), " \
           f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load average {load}"


def run_shell(command, timeout):
    return subprocess.run(["bash", "-c", "set -o pipefail\n" + command], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout)


def check_marked(docs, report, regenerate, static, texts):
    """Marked blocks: re-run (docs-check) or check their header (docs-perf); --regenerate rewrites both."""
    rewrites = {}
    for readme, (blocks, _) in docs.items():
        for block in blocks:
            if not block.marker:
                continue
            kind, command, line = block.marker
            where = f"{readme}:{line}"
            if kind == "perf" and not regenerate:
                header = block.lines[0][1] if block.lines else ""
                match = PERF_HEADER.match(header)
                if not match:
                    report.fail(where, "a performance figure without its '# measured on ... load average ...: "
                                       "COMMAND' line: run bin/test docs --regenerate")
                elif match.group(1).strip() != command:
                    report.fail(where, f"the figure was measured with '{match.group(1).strip()}', the marker says "
                                       f"'{command}': run bin/test docs --regenerate")
                continue
            if static and not regenerate:
                continue
            print(f"docs: {where}: {command}", file=sys.stderr)
            header = machine() if kind == "perf" else None
            done = run_shell(command, timeout=3600 if regenerate else 600)
            report.ran += 1
            if done.returncode != 0:
                report.fail(where, f"'{command}' exited {done.returncode}: {last_lines(done.stderr)}")
                continue
            output = done.stdout.rstrip("\n").splitlines()
            if kind == "perf":
                output = [f"# measured on {header}: {command}"] + output
            documented = [text for _, text in block.lines]
            if regenerate:
                rewrites.setdefault(readme, []).append((block, output))
            elif [o.rstrip() for o in output] != [d.rstrip() for d in documented]:
                report.fail(where, f"'{command}' prints now:\n{diff(documented, output, block)}")
    for readme, changes in rewrites.items():
        if (ROOT / readme).read_text() != texts[readme]:  # the line numbers would no longer hold
            report.fail(readme, "changed while its blocks were measured; nothing rewritten: run --regenerate again")
            continue
        (ROOT / readme).write_text(rewritten(texts[readme], changes))
        print(f"docs: rewrote {len(changes)} marked block(s) of {readme}", file=sys.stderr)


def rewritten(text, changes):
    """The README text with each (block, output) block's lines replaced by output, bottom up."""
    lines = text.splitlines()
    for block, output in sorted(changes, key=lambda c: -c[0].fence_line):
        lines[block.fence_line:block.fence_line + len(block.lines)] = output
    return "\n".join(lines) + "\n"


def diff(documented, output, block):
    lines = []
    for i in range(max(len(documented), len(output))):
        doc = documented[i].rstrip() if i < len(documented) else None
        now = output[i].rstrip() if i < len(output) else None
        if doc != now:
            number = block.lines[i][0] if i < len(block.lines) else block.end_line
            lines.append(f"    line {number}: documented {doc!r}\n    {' ' * len(str(number))}       now        {now!r}")
    return "\n".join(lines)


def last_lines(text, n=8):
    return "\n      " + "\n      ".join(text.strip().splitlines()[-n:])


def run_commands(docs, report, only=None):
    """Every command of every bash block, in order, one shell per block (a block's lines share variables)."""
    before = {d: set(os.listdir(ROOT / d)) if (ROOT / d).is_dir() else set() for d in ("results/runs", "results/reports")}
    try:
        for readme, (blocks, _) in docs.items():
            for block in blocks:
                if block.lang not in ("bash", "sh", "shell") or block.marker:
                    continue
                run_block(block, report, only)
    finally:  # what the commands left in the run and report folders is the check's, not the user's
        for folder, names in before.items():
            path = ROOT / folder
            for name in (set(os.listdir(path)) if path.is_dir() else set()) - names:
                subprocess.run(["rm", "-rf", str(path / name)])


def run_block(block, report, only):
    script, runnable = ["set -o pipefail"], []
    for command in commands(block):
        where = f"{command.readme}:{command.first}"
        reason = skip_reason(command.text)
        if reason or (only and not re.search(only, command.text)):
            report.skipped.append(f"{where}: {command.text.splitlines()[0][:100]}  ({reason or 'not selected'})")
            continue
        text = shrink(command.text)
        runnable.append((where, text))
        script += [f"echo \"docs: {where}: \"{shlex.quote(text)} >&2", "{", text, "}",
                   f"__status=$?; if [ $__status -ne 0 ]; then echo \"__docs_failed {len(runnable) - 1} $__status\" >&2;"
                   " exit 1; fi"]
    if not runnable:
        return
    started = time.time()
    try:
        done = subprocess.run(["bash", "-c", "\n".join(script)], cwd=ROOT, capture_output=True, text=True, timeout=600)
    except subprocess.TimeoutExpired:
        report.fail(f"{block.readme}:{block.fence_line}", "the block's commands took more than 10 minutes")
        return
    report.ran += len(runnable)
    failed = re.search(r"__docs_failed (\d+) (\d+)", done.stderr)
    if failed:
        where, text = runnable[int(failed.group(1))]
        tail = done.stderr[:failed.start()]
        report.fail(where, f"'{text}' (as run here) exited {failed.group(2)}:{last_lines(tail)}")
    elif done.returncode != 0:
        report.fail(f"{block.readme}:{block.fence_line}", f"the block exited {done.returncode}:{last_lines(done.stderr)}")
    else:
        print(f"docs: {block.readme}:{block.fence_line}: {len(runnable)} command(s) ran ({time.time() - started:.0f} s)",
              file=sys.stderr)


def main(argv=None):
    parser = argparse.ArgumentParser(description="Checks the READMEs against the software.")
    parser.add_argument("--regenerate", action="store_true", help="rewrite the marked blocks with what their commands print now")
    parser.add_argument("--static", action="store_true", help="paths, names and marked-block headers only; run nothing")
    parser.add_argument("--only", metavar="REGEX", help="run only the commands and marked blocks matching REGEX")
    args = parser.parse_args(argv)
    report = Report()
    docs, texts = {}, {}
    for readme in readmes():
        try:
            texts[readme] = (ROOT / readme).read_text()
            docs[readme] = parse(readme, texts[readme])
        except ValueError as e:
            report.fail(readme, str(e))
    if args.only:
        for readme, (blocks, prose) in docs.items():
            blocks[:] = [b for b in blocks if not b.marker or re.search(args.only, b.marker[1])]
    known = known_properties()
    prefixes = ("ramp.", "sla.", "stats.", "results.", "status.", "observe.", "trace.", "giveup.",
                "geo.", "ll.", "mongodb.", "postgis.")
    if not args.regenerate:
        check_names(docs, report, known, prefixes)
        check_lists(docs, report)
    check_marked(docs, report, args.regenerate, args.static, texts)
    if not args.static and not args.regenerate:
        run_commands(docs, report, args.only)
    for line in report.skipped:
        print(f"skipped {line}", file=sys.stderr)
    print(f"docs: {report.ran} command(s) ran, {len(report.skipped)} skipped, {len(report.failures)} failure(s)",
          file=sys.stderr)
    return 1 if report.failures else 0


if __name__ == "__main__":
    sys.exit(main())
