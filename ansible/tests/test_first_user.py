#!/usr/bin/env python3
"""Unit tests of library/geoshard_first_user.py's recovery logic (./check runs them).

No MongoDB runs here: the tests drive ensure_first_user() with a small scripted stand-in for
the server's user handling (createUser through the localhost exception, which closes once a
user exists; connectionStatus with credentials), including a createUser whose reply is lost.
"""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "library"))
import geoshard_first_user as module  # noqa: E402


class ServerError(Exception):
    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


class Server:
    """Users in admin and the localhost exception, as MongoDB handles them."""

    def __init__(self, users=None, lose_reply=0):
        self.users = dict(users or {})
        self.lose_reply = lose_reply
        self.created = 0

    def connect(self, user, password):
        server = self

        class Database:
            def command(self, name, *args, **kwargs):
                if user is not None and server.users.get(user) != password:
                    raise ServerError(module.AUTHENTICATION_FAILED, "Authentication failed.")
                if name == "connectionStatus":
                    return {"authInfo": {"authenticatedUsers": [{"user": user, "db": "admin"}] if user else []}}
                if name == "createUser":
                    if user is None and server.users:
                        raise ServerError(module.UNAUTHORIZED, "command createUser requires authentication")
                    if args[0] in server.users:
                        raise ServerError(module.USER_EXISTS, "User already exists")
                    server.users[args[0]] = kwargs["pwd"]
                    server.created += 1
                    if server.lose_reply:
                        server.lose_reply -= 1
                        raise ConnectionError("connection closed before the reply")
                    return {"ok": 1}
                raise AssertionError("unexpected command " + name)

        return Database()


class FirstUserTest(unittest.TestCase):
    def test_creates_the_user_through_the_localhost_exception(self):
        server = Server()
        self.assertEqual(module.ensure_first_user(server.connect, "admin1", "pw-123456789", ["root"]), "created")
        self.assertEqual(server.users, {"admin1": "pw-123456789"})

    def test_a_lost_reply_is_recovered_on_the_next_attempt(self):
        server = Server(lose_reply=1)
        with self.assertRaises(ConnectionError):
            module.ensure_first_user(server.connect, "admin1", "pw-123456789", ["root"])
        # The user exists, the localhost exception is closed, no marker: the retry recognises it.
        self.assertEqual(module.ensure_first_user(server.connect, "admin1", "pw-123456789", ["root"]), "existed")
        self.assertEqual(server.created, 1)

    def test_an_existing_user_with_these_credentials_is_kept(self):
        server = Server(users={"admin1": "pw-123456789"})
        self.assertEqual(module.ensure_first_user(server.connect, "admin1", "pw-123456789", ["root"]), "existed")
        self.assertEqual(server.created, 0)

    def test_another_administrator_fails_with_one_sentence(self):
        server = Server(users={"someone": "other-password"})
        with self.assertRaises(module.FirstUserError) as failure:
            module.ensure_first_user(server.connect, "admin1", "pw-123456789", ["root"])
        self.assertIn("cannot log in with the given password", str(failure.exception))
        self.assertEqual(server.users, {"someone": "other-password"})


if __name__ == "__main__":
    unittest.main()
