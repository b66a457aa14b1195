#!/usr/bin/env python3
"""Unit tests of library/geoshard_shard_collection.py: the commands it sends per server version
(./check runs them).

No MongoDB runs here: a small scripted router records the commands and answers as the release
does where the forms differ: before 4.4.2 there is no `hello`; before FCV 6.0 (4.4, 5.0)
`shardCollection` refuses a database that was not enabled for sharding; before 7.3 a hashed key
takes `numInitialChunks`; before 5.0 chunks are keyed by namespace, from 5.0 by the
collection's uuid.
"""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "library"))
import geoshard_shard_collection as module  # noqa: E402


class CommandError(Exception):
    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


class Router:
    def __init__(self, version, shards=3, enabled=False):
        self.version = version
        self.shards = ["shard%02d" % n for n in range(1, shards + 1)]
        self.enabled = enabled
        self.sent = []
        self.collections = {}
        self.chunks = []
        self.admin = self
        outer = self

        class Collection:
            def __init__(self, name):
                self.name = name

            def find_one(self, query):
                return outer.collections.get(query["_id"]) if self.name == "collections" else None

            def aggregate(self, pipeline):
                match = pipeline[0]["$match"]
                counts = {}
                for chunk in outer.chunks:
                    if all(chunk.get(k) == v for k, v in match.items()):
                        counts[chunk["shard"]] = counts.get(chunk["shard"], 0) + 1
                return [{"_id": shard, "n": n} for shard, n in counts.items()]

        self.config = {"collections": Collection("collections"), "chunks": Collection("chunks")}

    def __getitem__(self, name):
        assert name == "config"
        return self.config

    def command(self, command):
        name = command if isinstance(command, str) else next(iter(command))
        self.sent.append(command if isinstance(command, str) else dict(command))
        if name == "hello":
            if self.version < (4, 4, 2):
                raise CommandError(module.COMMAND_NOT_FOUND, "no such command: 'hello'")
            return {"msg": "isdbgrid"}
        if name == "isMaster":
            return {"msg": "isdbgrid", "ismaster": True}
        if name == "buildInfo":
            return {"versionArray": list(self.version) + [0]}
        if name == "listShards":
            return {"shards": [{"_id": s} for s in self.shards]}
        if name == "enableSharding":
            if self.enabled and self.version < (4, 2):
                raise CommandError(module.ALREADY_INITIALIZED, "already enabled")
            self.enabled = True
            return {"ok": 1}
        if name == "shardCollection":
            if self.version < (6, 0) and not self.enabled:
                raise CommandError(20, "sharding not enabled for db ycsb")
            count = command.get("numInitialChunks", len(self.shards)) if "hashed" in command["key"].values() else 1
            entry = {"_id": command["shardCollection"], "key": command["key"], "uuid": "u1"}
            if self.version >= (5, 0):
                entry["timestamp"] = 1
            self.collections[entry["_id"]] = entry
            for n in range(count):
                chunk = {"shard": self.shards[n % len(self.shards)]}
                chunk.update({"uuid": "u1"} if self.version >= (5, 0) else {"ns": entry["_id"]})
                self.chunks.append(chunk)
            return {"ok": 1}
        raise AssertionError("unexpected command %r" % (command,))


def shard(router, key=None):
    return module.ensure_sharded(router, CommandError, "ycsb.restaurants", key or {"Name": "hashed"}, False, 2, False)


class ShardCollectionTest(unittest.TestCase):
    def test_4_4_enables_sharding_first_and_asks_for_initial_chunks(self):
        router = Router((4, 4, 29))
        result = shard(router)
        commands = [c for c in router.sent if not isinstance(c, str) and next(iter(c)) in ("enableSharding", "shardCollection")]
        self.assertEqual(commands, [
            {"enableSharding": "ycsb"},
            {"shardCollection": "ycsb.restaurants", "key": {"Name": "hashed"}, "unique": False, "numInitialChunks": 6}])
        self.assertEqual(result["chunks_by_shard"], {"shard01": 2, "shard02": 2, "shard03": 2})
        self.assertEqual(result["server_version"], "4.4.29")

    def test_a_4_4_router_without_hello_is_recognised_through_is_master(self):
        router = Router((4, 4, 0))
        self.assertTrue(module.is_router(router, CommandError))
        self.assertEqual(router.sent, ["hello", "isMaster"])

    def test_8_0_takes_no_initial_chunk_count(self):
        router = Router((8, 0, 4))
        result = shard(router)
        sharded = [c for c in router.sent if not isinstance(c, str) and "shardCollection" in c]
        self.assertNotIn("numInitialChunks", sharded[0])
        self.assertEqual(result["chunks_by_shard"], {"shard01": 1, "shard02": 1, "shard03": 1})

    def test_a_ranged_cell_key_on_4_4_is_one_chunk_on_the_catalog_by_namespace(self):
        router = Router((4, 4, 29))
        result = shard(router, {"CellId": 1})
        self.assertEqual(sum(result["chunks_by_shard"].values()), 1)

    def test_an_already_enabled_database_is_fine(self):
        router = Router((4, 0, 0), enabled=True)
        self.assertTrue(shard(router)["changed"])

    def test_rerunning_changes_nothing_and_a_different_key_fails(self):
        router = Router((4, 4, 29))
        shard(router)
        sent = len(router.sent)
        again = shard(router)
        self.assertFalse(again["changed"])
        self.assertTrue(again["already_sharded"])
        self.assertFalse([c for c in router.sent[sent:] if not isinstance(c, str) and "shardCollection" in c])
        with self.assertRaises(ValueError) as failure:
            shard(router, {"CellId": 1})
        self.assertIn("already sharded with key", str(failure.exception))


if __name__ == "__main__":
    unittest.main()
