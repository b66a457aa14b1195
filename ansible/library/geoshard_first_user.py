#!/usr/bin/python
# -*- coding: utf-8 -*-
# Part of the geoshard project (ansible/library): used by the mongodb_standalone,
# mongodb_shard and mongodb_cluster roles.

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: geoshard_first_user
short_description: Create the first administrator through MongoDB's localhost exception, recoverably
description:
  - Creates C(name) with C(roles) in C(admin) through the localhost exception (no login), then
    writes C(marker). Before creating, it tries to log in with the credentials. A user that
    exists already (an earlier createUser that succeeded on the server while its reply was lost,
    which closes the localhost exception and leaves no marker) is recognised, the marker is
    written and nothing is created. A failed createUser is checked the same way before failing.
  - Fails with one sentence when the localhost exception is closed and the credentials do not
    log in (another administrator exists, or a wrong password).
  - The password is a no_log parameter, never on a command line.
options:
  login_host:
    description: Address of the mongod or mongos (the localhost exception needs a loopback address).
    type: str
    default: localhost
  login_port:
    description: Port of the mongod or mongos.
    type: int
    default: 27017
  name:
    description: Name of the administrator.
    type: str
    required: true
  password:
    description: Password of the administrator.
    type: str
    required: true
  roles:
    description: Roles of the administrator in C(admin), for example C([root]).
    type: list
    elements: raw
    default: [root]
  marker:
    description: File written once the administrator exists; when present, nothing is done.
    type: path
    required: true
  tls_ca_file:
    description: CA certificate of the server's TLS certificate; connect with TLS when set.
    type: str
    default: ""
  timeout_ms:
    description: Server selection timeout.
    type: int
    default: 10000
requirements: [pymongo]
author: geoshard
"""

EXAMPLES = r"""
- name: Create the administrator (localhost exception), recovering from a partial earlier attempt
  geoshard_first_user:
    login_port: 27017
    name: geoshard-admin
    password: "{{ admin_password }}"
    roles: [root]
    marker: /etc/geoshard/instances/.standalone-admin-created
  no_log: true
"""

RETURN = r"""
outcome:
  description: created, existed (logged in with the credentials) or marker (nothing done).
  returned: success
  type: str
"""

import os
import traceback

from ansible.module_utils.basic import AnsibleModule, missing_required_lib

PYMONGO_ERROR = None
try:
    from pymongo import MongoClient
except ImportError:
    PYMONGO_ERROR = traceback.format_exc()

AUTHENTICATION_FAILED = 18
UNAUTHORIZED = 13
USER_EXISTS = 51003


class FirstUserError(Exception):
    """The administrator cannot be created and the credentials do not log in."""


def logs_in(connect, name, password):
    """True when name/password log in; False on an authentication failure; other errors propagate."""
    try:
        status = connect(name, password).command("connectionStatus")
    except Exception as error:  # pylint: disable=broad-except
        if getattr(error, "code", None) == AUTHENTICATION_FAILED:
            return False
        raise
    return any(user.get("user") == name for user in status.get("authInfo", {}).get("authenticatedUsers", []))


def ensure_first_user(connect, name, password, roles):
    """Returns 'existed' or 'created'. connect(user, password) gives an object with command();
    connect(None, None) connects without logging in (the localhost exception)."""
    if logs_in(connect, name, password):
        return "existed"
    try:
        connect(None, None).command("createUser", name, pwd=password, roles=roles)
        return "created"
    except Exception as error:  # pylint: disable=broad-except
        code = getattr(error, "code", None)
        if code not in (UNAUTHORIZED, USER_EXISTS):
            raise
        # The exception is closed or the user exists: ours, if the credentials log in now.
        if logs_in(connect, name, password):
            return "existed"
        raise FirstUserError(
            "The localhost exception is closed and %s cannot log in with the given password: another administrator "
            "exists or the password differs from the one the user was created with (%s)." % (name, error))


def main():
    module = AnsibleModule(
        argument_spec=dict(
            login_host=dict(type="str", default="localhost"),
            login_port=dict(type="int", default=27017),
            name=dict(type="str", required=True),
            password=dict(type="str", required=True, no_log=True),
            roles=dict(type="list", elements="raw", default=["root"]),
            marker=dict(type="path", required=True),
            tls_ca_file=dict(type="str", default=""),
            timeout_ms=dict(type="int", default=10000),
        ),
        supports_check_mode=False,
    )
    params = module.params
    if os.path.exists(params["marker"]):
        module.exit_json(changed=False, outcome="marker")
    if PYMONGO_ERROR:
        module.fail_json(msg=missing_required_lib("pymongo"), exception=PYMONGO_ERROR)

    def connect(user, password):
        options = dict(host=params["login_host"], port=params["login_port"], directConnection=True,
                       serverSelectionTimeoutMS=params["timeout_ms"])
        if params["tls_ca_file"]:
            options.update(tls=True, tlsCAFile=params["tls_ca_file"])
        if user is not None:
            options.update(username=user, password=password, authSource="admin")
        return MongoClient(**options)["admin"]

    try:
        outcome = ensure_first_user(connect, params["name"], params["password"], params["roles"])
    except FirstUserError as error:
        module.fail_json(msg=str(error))
    except Exception as error:  # pylint: disable=broad-except
        module.fail_json(msg="Could not reach or use %s:%d: %s" % (params["login_host"], params["login_port"], error))
    with open(params["marker"], "w") as marker:
        marker.write(outcome + "\n")
    module.exit_json(changed=outcome == "created", outcome=outcome)


if __name__ == "__main__":
    main()
