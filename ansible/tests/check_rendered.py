#!/usr/bin/env python3
"""Checks the files tests/render.yml rendered for one inventory and scenario.

usage: check_rendered.py RENDER_DIR INVENTORY_JSON KIND SCENARIO ADMIN_PASSWORD BENCH_PASSWORD
  INVENTORY_JSON: `ansible-inventory --list` of the same inventory and scenario (addresses).
Expectations come from the rules, not from the roles' own variables: MongoDB's default port
of each cluster role, replica set names cfgrs and shard<NN>, bindIp = loopback + private
address, keyfile /etc/mongodb/geoshard.key, members, shards and clients on the public DNS
name (never an IP address) when an EC2 layout spans regions, the data disk of EC2 data hosts
by its EBS volume id. Prints one PASS/FAIL line per check.
"""
import ipaddress
import json
import os
import re
import sys
from urllib.parse import parse_qs, unquote, urlsplit

import yaml

import expected

KEYFILE = "/etc/mongodb/geoshard.key"
PRIVATE = [ipaddress.ip_network(n) for n in ("127.0.0.0/8", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10")]

# The configuration file options of MongoDB 4.4 that the roles may write (its manual's
# "Configuration File Options"; setParameter names are checked by the server at start).
OPTIONS_4_4 = [r"storage\.dbPath", r"storage\.wiredTiger\.engineConfig\.cacheSizeGB",
               r"systemLog\.(destination|path|logAppend|logRotate)", r"net\.(port|bindIp)",
               r"net\.tls\.(mode|certificateKeyFile|CAFile|allowConnectionsWithoutCertificates)",
               r"processManagement\.timeZoneInfo", r"security\.(authorization|keyFile)",
               r"replication\.(replSetName|oplogSizeMB)", r"sharding\.(clusterRole|configDB)", r"setParameter\..+"]

results = []


def option_paths(conf, prefix=""):
    for name, value in conf.items():
        if isinstance(value, dict) and name != "setParameter":
            yield from option_paths(value, prefix + name + ".")
        elif isinstance(value, dict):
            yield from (prefix + name + "." + parameter for parameter in value)
        else:
            yield prefix + name


def check(label, ok, detail=""):
    results.append(ok)
    print(("PASS " if ok else "FAIL ") + label + ("" if ok or not detail else "\n    " + str(detail)))


def load_conf(path):
    with open(path, encoding="utf-8") as handle:
        return yaml.safe_load(handle)


def read(path):
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def main():
    render_dir, inventory_json, kind, scenario, admin_password, bench_password = sys.argv[1:7]
    with open(inventory_json, encoding="utf-8") as handle:
        hostvars = json.load(handle)["_meta"]["hostvars"]
    groups = expected.for_kind(kind, scenario)
    cross_region = scenario == "3region-targeted" and kind.startswith("ec2")

    def addr(host):
        hv = hostvars[host]
        return hv["geoshard_public_dns"] if cross_region else hv["geoshard_private_ip"]

    def is_ip(text):
        try:
            ipaddress.ip_address(text)
            return True
        except ValueError:
            return False

    def bind_ok(host, bind_ip):
        parts = bind_ip.split(",")
        private = all(any(ipaddress.ip_address(p) in net for net in PRIVATE) for p in parts)
        return parts == ["127.0.0.1", hostvars[host]["geoshard_private_ip"]] and private

    tag = "%s/%s" % (kind, scenario)
    if cross_region:
        named = {h: addr(h) for h in hostvars if h != "localhost"}
        check("%s: members, shards and clients reach each host by its public DNS name across regions" % tag,
              all(n and not is_ip(n) for n in named.values()), named)
    cfg_hosts = sorted(groups["geoshard_configsvr"])

    def seen(host):
        return json.loads(read(os.path.join(render_dir, host, "seen.json")))

    def version(host):
        return tuple(int(part) for part in seen(host)["mongodb_version"].split("."))

    def check_unit(host, unit_name, conf_path, binary):
        root = os.path.join(render_dir, host)
        unit_path = os.path.join(root, "etc/systemd/system", unit_name)
        if not os.path.exists(unit_path):
            check("%s %s: unit %s rendered" % (tag, host, unit_name), False, unit_path)
            return
        unit = read(unit_path)
        exec_start = re.search(r"^ExecStart=(.*)$", unit, re.M)
        want_exec = "%s --config %s" % (binary, conf_path)
        problems = []
        if not exec_start or not exec_start.group(1).endswith(want_exec):
            problems.append("ExecStart %r does not end with %r" % (exec_start and exec_start.group(1), want_exec))
        for line in ("LimitNOFILE=64000", "LimitNPROC=64000", "LimitMEMLOCK=infinity", "Restart=on-failure",
                     "geoshard-benchmark-id: render", "WantedBy=multi-user.target"):
            if line not in unit:
                problems.append("missing " + line)
        # 8.0's TCMalloc needs rseq off; before 8.0 the allocator is another and the line is not set.
        allocator = 'Environment="GLIBC_TUNABLES=glibc.pthread.rseq=0"'
        if (allocator in unit) != (version(host) >= (8, 0)):
            problems.append("%s is %s for MongoDB %s" % (allocator, "set" if allocator in unit else "missing",
                                                          seen(host)["mongodb_version"]))
        if not re.search(r"^After=.*geoshard-thp\.service", unit, re.M):
            problems.append("not ordered after geoshard-thp.service")
        # mongod waits for its data mount (nofail: boot goes on without it, mongod must not).
        want_mounts = "RequiresMountsFor=" + os.path.join(root, "var/lib/mongodb")
        if binary.endswith("mongod") and not re.search(r"^%s$" % re.escape(want_mounts), unit, re.M):
            problems.append("missing " + want_mounts + " in [Unit]")
        check("%s %s: unit %s (ExecStart, limits, THP ordering, data mount, allocator of MongoDB %s)"
              % (tag, host, unit_name, seen(host)["mongodb_version"]), not problems, problems)

    def check_options(host, name, conf):
        """Every option is one that the oldest series these roles install (4.4) accepts."""
        unknown = sorted(path for path in option_paths(conf) if not any(re.fullmatch(o, path) for o in OPTIONS_4_4))
        check("%s %s: %s has only options MongoDB 4.4 accepts" % (tag, host, name), not unknown, unknown)

    def check_mongod(host, instance, port, role, replset, keyfile):
        root = os.path.join(render_dir, host)
        conf_path = os.path.join(root, "etc", "mongod-%s.conf" % instance)
        if not os.path.exists(conf_path):
            check("%s %s: mongod-%s.conf rendered" % (tag, host, instance), False, conf_path)
            return
        conf = load_conf(conf_path)
        problems = []
        if conf["net"]["port"] != port:
            problems.append("port %s != %s" % (conf["net"]["port"], port))
        if not bind_ok(host, conf["net"]["bindIp"]):
            problems.append("bindIp %s" % conf["net"]["bindIp"])
        if conf.get("sharding", {}).get("clusterRole") != role:
            problems.append("clusterRole %s != %s" % (conf.get("sharding", {}).get("clusterRole"), role))
        if conf.get("replication", {}).get("replSetName") != replset:
            problems.append("replSetName %s != %s" % (conf.get("replication", {}).get("replSetName"), replset))
        if conf["security"].get("authorization") != "enabled":
            problems.append("authorization not enabled")
        if conf["security"].get("keyFile") != keyfile:
            problems.append("keyFile %s != %s" % (conf["security"].get("keyFile"), keyfile))
        if not conf["storage"]["dbPath"].endswith("/var/lib/mongodb/" + instance):
            problems.append("dbPath %s" % conf["storage"]["dbPath"])
        check("%s %s: mongod-%s.conf port %d, role %s, replica set %s, bindIp, keyfile %s" % (
            tag, host, instance, port, role or "none", replset or "none", keyfile or "none"), not problems, problems)
        check_options(host, "mongod-%s.conf" % instance, conf)
        check_unit(host, "mongod-%s.service" % instance, conf_path, "/usr/bin/mongod")
        record = json.loads(read(os.path.join(root, "etc/geoshard/instances/mongod-%s.json" % instance)))
        check("%s %s: instance record of mongod-%s for teardown" % (tag, host, instance),
              record["benchmark_id"] == "render" and record["unit"] == "mongod-%s.service" % instance
              and conf_path in record["files"], record)

    for host in groups["geoshard_standalone"]:
        check_mongod(host, "standalone", 27017, None, None, None)
    for host in cfg_hosts:
        check_mongod(host, "configsvr", 27019, "configsvr", "cfgrs", KEYFILE)
    for host in groups["geoshard_shardsvr"]:
        name = "shard%02d" % int(hostvars[host]["geoshard_shard_index"])
        check_mongod(host, name, 27018, "shardsvr", name, KEYFILE)
    for host in groups["geoshard_mongos"]:
        root = os.path.join(render_dir, host)
        conf_path = os.path.join(root, "etc/mongos.conf")
        conf = load_conf(conf_path)
        want_configdb = "cfgrs/" + ",".join("%s:27019" % addr(h) for h in cfg_hosts)
        problems = []
        if conf["net"]["port"] != 27017:
            problems.append("port %s" % conf["net"]["port"])
        if not bind_ok(host, conf["net"]["bindIp"]):
            problems.append("bindIp %s" % conf["net"]["bindIp"])
        if conf["sharding"].get("configDB") != want_configdb:
            problems.append("configDB %s != %s" % (conf["sharding"].get("configDB"), want_configdb))
        if conf["security"] != {"keyFile": KEYFILE}:
            problems.append("security %s (mongos takes only the keyfile)" % conf["security"])
        check("%s %s: mongos.conf port 27017, configDB %s, bindIp, keyfile" % (tag, host, want_configdb), not problems, problems)
        check_options(host, "mongos.conf", conf)
        check_unit(host, "mongos.service", conf_path, "/usr/bin/mongos")

    # Replica set members (first one preferred as primary) and what the cluster
    # initialisation will add, as the roles computed them.
    def members(hosts, port):
        return [{"host": "%s:%d" % (addr(h), port), "priority": 2 if n == 0 else 1} for n, h in enumerate(hosts)]

    for host in cfg_hosts:
        check("%s %s: config server replica set members %s" % (tag, host, ",".join(addr(h) for h in cfg_hosts)),
              seen(host)["configsvr_replset_members"] == members(cfg_hosts, 27019), seen(host)["configsvr_replset_members"])
    by_index = {}
    for host in sorted(groups["geoshard_shardsvr"]):
        by_index.setdefault(int(hostvars[host]["geoshard_shard_index"]), []).append(host)
    for index, hosts in sorted(by_index.items()):
        for host in hosts:
            check("%s %s: shard%02d replica set members %s" % (tag, host, index, ",".join(addr(h) for h in hosts)),
                  seen(host)["shard_replset_members"] == members(hosts, 27018), seen(host)["shard_replset_members"])
    if groups["geoshard_mongos"]:
        first = seen(sorted(groups["geoshard_mongos"])[0])
        want = [{"name": "shard%02d" % index, "hosts": ["%s:27018" % addr(h) for h in hosts]}
                for index, hosts in sorted(by_index.items())]
        check("%s: cluster initialisation adds %s" % (tag, ", ".join("%s/%d member(s)" % (s["name"], len(s["hosts"])) for s in want)),
              first["mongodb_cluster_shards"] == want, first["mongodb_cluster_shards"])
        check("%s: a collection is sharded before the load" % tag,
              len(first["cluster_collections"]) > 0 and all("key" in c for c in first["cluster_collections"]), first)

    # EC2: the data volume is found by its EBS id (NVMe serial), only on hosts that hold data.
    if kind.startswith("ec2"):
        for host in sorted(set().union(*groups.values())):
            hv = hostvars[host]
            holds_data = any(host in groups[g] for g in ("geoshard_standalone", "geoshard_configsvr", "geoshard_shardsvr"))
            volume = hv.get("geoshard_data_volume_id", "") if holds_data else ""
            want = "/dev/disk/by-id/nvme-Amazon_Elastic_Block_Store_" + volume.replace("-", "") if volume else ""
            got = seen(host).get("data_disk")
            check("%s %s: data disk %s" % (tag, host, want or "none"), got == want and bool(volume) == holds_data, got)

    # The lab: each data host's own disk by a /dev/disk/by-id link (hosts.yml), none on routers and clients.
    if kind == "lab":
        for host in sorted(set().union(*groups.values())):
            holds_data = any(host in groups[g] for g in ("geoshard_standalone", "geoshard_configsvr", "geoshard_shardsvr"))
            want = hostvars[host].get("geoshard_data_disk", "") if holds_data else ""
            got = seen(host).get("data_disk")
            check("%s %s: data disk %s" % (tag, host, want or "none"),
                  got == want and (not holds_data or want.startswith("/dev/disk/by-id/")), got)

    # The client's connection file.
    for host in groups["geoshard_clients"]:
        path = os.path.join(render_dir, host, "etc/geoshard/ycsb-connection.properties")
        props = dict(line.split("=", 1) for line in read(path).splitlines() if line and not line.startswith("#"))
        url = urlsplit(props.get("mongodb.url", ""))
        if groups["geoshard_standalone"]:
            want_hosts = ["%s:27017" % addr(groups["geoshard_standalone"][0])]
        elif scenario == "3region-targeted":
            region = hostvars[host]["geoshard_region"]
            local = [h for h in sorted(groups["geoshard_mongos"]) if hostvars[h]["geoshard_region"] == region]
            want_hosts = ["%s:27017" % addr((local or sorted(groups["geoshard_mongos"]))[0])]
        else:
            want_hosts = ["%s:27017" % addr(groups["geoshard_mongos"][0])]
        problems = []
        if url.scheme != "mongodb" or url.username != "ycsb" or unquote(url.password or "") != bench_password:
            problems.append("credentials or scheme wrong (password must round-trip through URL encoding)")
        if url.netloc.rsplit("@", 1)[-1].split(",") != want_hosts:
            problems.append("hosts %s != %s" % (url.netloc.rsplit("@", 1)[-1], want_hosts))
        if url.path != "/ycsb" or parse_qs(url.query).get("authSource") != ["admin"]:
            problems.append("database or authSource: %s?%s" % (url.path, url.query))
        check("%s %s: mongodb.url -> %s as ycsb, authSource=admin" % (tag, host, ",".join(want_hosts)), not problems, problems)
        targeted = {k[len("mongodb.targeted.mongos."):]: urlsplit(v) for k, v in props.items()
                    if k.startswith("mongodb.targeted.mongos.")}
        if scenario == "3region-targeted":
            want = {"shard%02d" % int(hostvars[h]["geoshard_shard_index"]): "%s:27017" % addr(h) for h in groups["geoshard_mongos"]}
            got = {k: v.netloc.rsplit("@", 1)[-1] for k, v in targeted.items()}
            check("%s %s: targeted routing maps each shard to the mongos on its host" % (tag, host),
                  got == want and all(unquote(v.password or "") == bench_password for v in targeted.values()), got)
        else:
            check("%s %s: no targeted routing entries" % (tag, host), not targeted, targeted)

    # node_exporter on every cluster host, on its private address only, and its list on every client.
    servers = sorted(set(groups["geoshard_standalone"]) | set(groups["geoshard_configsvr"])
                     | set(groups["geoshard_shardsvr"]) | set(groups["geoshard_mongos"]))
    for host in servers:
        path = os.path.join(render_dir, host, "etc/default/prometheus-node-exporter")
        args = read(path) if os.path.exists(path) else ""
        want = '--web.listen-address=%s:9100' % hostvars[host]["geoshard_private_ip"]
        check("%s %s: node_exporter listens on %s only" % (tag, host, want.split("=")[1]),
              re.search(r'^ARGS="%s"$' % re.escape(want), args, re.M) is not None, args)
    for host in groups["geoshard_clients"]:
        path = os.path.join(render_dir, host, "etc/geoshard/ycsb-connection.properties")
        props = dict(line.split("=", 1) for line in read(path).splitlines() if line and not line.startswith("#"))
        want = sorted(set("%s:9100" % addr(h) for h in servers))
        got = sorted(props.get("observe.nodeexporter", "").split(","))
        check("%s %s: observe.nodeexporter lists the %d cluster hosts' exporters" % (tag, host, len(want)),
              got == want, got)

    # Secrets: the admin password nowhere, the benchmark password only URL-encoded in the
    # connection file, no file readable by everyone that holds it.
    leaks = []
    for base, _dirs, files in os.walk(render_dir):
        for name in files:
            path = os.path.join(base, name)
            text = read(path)
            if admin_password in text or bench_password in text:
                leaks.append(path)
            if "ycsb-connection" in name and os.stat(path).st_mode & 0o007:
                leaks.append(path + " (world-readable)")
    check("%s: no password in clear in any rendered file" % tag, not leaks, leaks)
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
