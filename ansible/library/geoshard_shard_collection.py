#!/usr/bin/python
# -*- coding: utf-8 -*-
# Part of the geoshard project (ansible/library): used by the mongodb_cluster role.

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: geoshard_shard_collection
short_description: Shard a collection through mongos, once, with an even initial split
description:
  - Shards C(namespace) with C(key) unless it is already sharded. Re-running with the same key
    changes nothing; a different key fails (changing a shard key needs resharding, which this
    module does not do).
  - For a hashed key on an empty collection, servers before 7.3 are asked for
    C(chunks_per_shard) chunks per shard (C(numInitialChunks)); 7.3 and later ignore that
    option and create one chunk per shard themselves.
  - The database is enabled for sharding first (C(enableSharding)), which C(shardCollection)
    needs before feature compatibility version 6.0 (so on 4.4 and 5.0); from 6.0 on it only
    creates the database.
  - Servers before 4.4.2 have no C(hello) command; the router check then asks C(isMaster).
  - Passwords are taken as parameters marked no_log, never from or onto a command line.
options:
  login_host:
    description: Address of the mongos.
    type: str
    default: localhost
  login_port:
    description: Port of the mongos.
    type: int
    default: 27017
  login_user:
    description: User with the clusterManager (or root) role.
    type: str
    required: true
  login_password:
    description: Password of login_user.
    type: str
    required: true
  login_database:
    description: Authentication database of login_user.
    type: str
    default: admin
  namespace:
    description: The namespace C(database.collection) to shard.
    type: str
    required: true
  key:
    description: "Shard key, for example C({Name: hashed}) or C({region: 1, _id: 1})."
    type: dict
    required: true
  unique:
    description: Enforce uniqueness of the shard key (ranged keys only).
    type: bool
    default: false
  chunks_per_shard:
    description: Initial chunks per shard for hashed keys on servers before 7.3.
    type: int
    default: 2
  tls_ca_file:
    description: CA certificate of the server's TLS certificate; connect with TLS when set.
    type: str
    default: ""
  timeout_ms:
    description: Server selection timeout.
    type: int
    default: 30000
requirements:
  - pymongo >= 4.0 on the host that runs the module
author:
  - geoshard
"""

EXAMPLES = r"""
- name: Shard the restaurants with the study's hashed key
  geoshard_shard_collection:
    login_user: admin
    login_password: "{{ admin_password }}"
    namespace: ycsb.restaurants
    key: {Name: hashed}
"""

RETURN = r"""
namespace:
  description: The namespace.
  returned: always
  type: str
already_sharded:
  description: Whether the collection was sharded before this run.
  returned: always
  type: bool
chunks_by_shard:
  description: Number of chunks of the collection on each shard after the run.
  returned: success
  type: dict
server_version:
  description: Version of the mongos.
  returned: success
  type: str
"""

import traceback

from ansible.module_utils.basic import AnsibleModule, missing_required_lib

PYMONGO_IMPORT_ERROR = None
try:
    from pymongo import MongoClient
    from pymongo.errors import OperationFailure, PyMongoError
except ImportError:
    PYMONGO_IMPORT_ERROR = traceback.format_exc()


def normalise_key(key):
    """Shard key values as MongoDB stores them: 1 (int) or "hashed"."""
    result = {}
    for field, kind in key.items():
        if isinstance(kind, str) and kind.lower() == "hashed":
            result[field] = "hashed"
        else:
            result[field] = int(kind)
    return result


def sharded_entry(client, namespace):
    """The config.collections document of a sharded collection, or None."""
    entry = client["config"]["collections"].find_one({"_id": namespace})
    if entry is None or entry.get("dropped") or entry.get("unsplittable"):
        return None
    return entry


def chunks_by_shard(client, entry):
    # Chunks are keyed by the collection's uuid since 5.0, by namespace before.
    match = {"uuid": entry["uuid"]} if "timestamp" in entry and "uuid" in entry else {"ns": entry["_id"]}
    counts = {}
    for row in client["config"]["chunks"].aggregate([{"$match": match}, {"$group": {"_id": "$shard", "n": {"$sum": 1}}}]):
        counts[row["_id"]] = row["n"]
    return counts


COMMAND_NOT_FOUND = 59
ALREADY_INITIALIZED = 23


def is_router(client, command_error):
    """Whether the server is a mongos: hello, or isMaster on servers before 4.4.2."""
    try:
        reply = client.admin.command("hello")
    except command_error as error:
        if getattr(error, "code", None) != COMMAND_NOT_FOUND:
            raise
        reply = client.admin.command("isMaster")
    return reply.get("msg") == "isdbgrid"


def shard_commands(version, namespace, key, unique, shard_count, chunks_per_shard):
    """The commands that shard an empty collection on a server of this version, in order."""
    command = {"shardCollection": namespace, "key": key, "unique": unique}
    if "hashed" in key.values() and tuple(version[:2]) < (7, 3):
        command["numInitialChunks"] = max(1, shard_count * chunks_per_shard)
    return [{"enableSharding": namespace.split(".", 1)[0]}, command]


def ensure_sharded(client, command_error, namespace, key, unique, chunks_per_shard, check_mode):
    """Shards the collection unless it is; returns the module's result (changed, chunks...)."""
    result = dict(changed=False, namespace=namespace, already_sharded=False)
    version = client.admin.command("buildInfo")["versionArray"]
    result["server_version"] = ".".join(str(part) for part in version[:3])
    entry = sharded_entry(client, namespace)
    if entry is not None:
        result["already_sharded"] = True
        existing = normalise_key(dict(entry["key"]))
        if existing != key:
            raise ValueError("%s is already sharded with key %s, not %s; resharding is not done by this module"
                             % (namespace, existing, key))
        result["chunks_by_shard"] = chunks_by_shard(client, entry)
        return result
    result["changed"] = True
    if check_mode:
        return result
    shard_count = len(client.admin.command("listShards")["shards"])
    for command in shard_commands(version, namespace, key, unique, shard_count, chunks_per_shard):
        try:
            client.admin.command(command)
        except command_error as error:
            # A database enabled before (4.4 and 5.0 may say so rather than succeed) is what we want.
            if "enableSharding" not in command or getattr(error, "code", None) != ALREADY_INITIALIZED:
                raise
    result["chunks_by_shard"] = chunks_by_shard(client, sharded_entry(client, namespace))
    return result


def main():
    module = AnsibleModule(
        argument_spec=dict(
            login_host=dict(type="str", default="localhost"),
            login_port=dict(type="int", default=27017),
            login_user=dict(type="str", required=True),
            login_password=dict(type="str", required=True, no_log=True),
            login_database=dict(type="str", default="admin"),
            namespace=dict(type="str", required=True),
            key=dict(type="dict", required=True),
            unique=dict(type="bool", default=False),
            chunks_per_shard=dict(type="int", default=2),
            tls_ca_file=dict(type="str", default=""),
            timeout_ms=dict(type="int", default=30000),
        ),
        supports_check_mode=True,
    )
    if PYMONGO_IMPORT_ERROR is not None:
        module.fail_json(msg=missing_required_lib("pymongo"), exception=PYMONGO_IMPORT_ERROR)

    params = module.params
    namespace = params["namespace"]
    if namespace.count(".") < 1 or namespace.startswith(".") or namespace.endswith("."):
        module.fail_json(msg="namespace must be 'database.collection', got %r" % namespace)
    key = normalise_key(params["key"])
    result = dict(changed=False, namespace=namespace, already_sharded=False)

    try:
        client = MongoClient(
            host=params["login_host"],
            port=params["login_port"],
            username=params["login_user"],
            password=params["login_password"],
            authSource=params["login_database"],
            directConnection=True,
            serverSelectionTimeoutMS=params["timeout_ms"],
            **(dict(tls=True, tlsCAFile=params["tls_ca_file"]) if params["tls_ca_file"] else {})
        )
        if not is_router(client, OperationFailure):
            module.fail_json(msg="%s:%s is not a mongos" % (params["login_host"], params["login_port"]), **result)
        result = ensure_sharded(client, OperationFailure, namespace, key, params["unique"],
                                params["chunks_per_shard"], module.check_mode)
    except ValueError as error:
        module.fail_json(msg=str(error), **result)
    except PyMongoError as error:
        module.fail_json(msg="MongoDB error while sharding %s: %s" % (namespace, error), **result)
    module.exit_json(**result)


if __name__ == "__main__":
    main()
