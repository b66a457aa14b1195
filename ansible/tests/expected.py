"""What each inventory must give each scenario: the hosts of the groups the playbooks target.

Shared by check_inventory.py (ansible-inventory --graph) and check_rendered.py.
"""

GROUPS = ("geoshard_standalone", "geoshard_configsvr", "geoshard_shardsvr", "geoshard_mongos", "geoshard_clients")
SCENARIOS = ("0s", "2s", "3s", "2s-cells", "3s-cells", "3region-targeted")


def layout(cfg, router, shards, client, scenario):
    """Hosts per group, from the pool members of an inventory (shards in index order)."""
    empty = {group: [] for group in GROUPS}
    if scenario == "0s":
        return dict(empty, geoshard_standalone=[shards[0]], geoshard_clients=[client])
    count = 2 if scenario.startswith("2s") else 3
    mongos = shards[:count] if scenario == "3region-targeted" else [router]
    return dict(empty, geoshard_configsvr=[cfg], geoshard_shardsvr=shards[:count],
                geoshard_mongos=mongos, geoshard_clients=[client])


def lab(scenario):
    return layout("lab-cfg01", "lab-mongos01", ["lab-shard01", "lab-shard02", "lab-shard03"], "lab-client01", scenario)


def ec2_static(scenario):
    return layout("demo-config1", "demo-router1", ["demo-shard1", "demo-shard2", "demo-shard3"], "demo-client1", scenario)


def replsets(scenario):
    """tests/inventories/replsets: three config servers, three members per shard (2s, 3s)."""
    count = 2 if scenario == "2s" else 3
    shards = ["rs-s%d%s" % (n, m) for n in range(1, count + 1) for m in "abc"]
    return {"geoshard_standalone": [], "geoshard_configsvr": ["rs-cfg1", "rs-cfg2", "rs-cfg3"],
            "geoshard_shardsvr": shards, "geoshard_mongos": ["rs-router1"], "geoshard_clients": ["rs-client1"]}


def for_kind(kind, scenario):
    return {"lab": lab, "ec2-static": ec2_static, "replsets": replsets}[kind](scenario)


def scenarios(kind):
    return ("2s", "3s") if kind == "replsets" else SCENARIOS


def ec2_provisioned(benchmark_id, scenario):
    """What provision-ec2.yml starts (names <id>-<pool><n>): only the hosts the scenario needs."""
    shards = ["%s-shard%d" % (benchmark_id, n) for n in (1, 2, 3)]
    return layout(benchmark_id + "-config1", benchmark_id + "-router1", shards, benchmark_id + "-client1", scenario)
