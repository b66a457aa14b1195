#!/usr/bin/env python3
"""Checks the TLS files tests/render.yml rendered with geoshard_mongodb_tls=true.

usage: check_tls.py RENDER_DIR INVENTORY_JSON CA_DIR STOREPASS
Every MongoDB host: its mongod/mongos configurations require TLS with the deployment's files,
its server.pem (certificate and key, mode 0400) is signed by the deployment's CA (openssl
verify) for its names and addresses (the advertised one and loopback included), and the CA's
key stays on the controller. Every client: tls=true in its URLs and the CA in a PKCS12
truststore the JVM reads (keytool -list). Prints one PASS/FAIL line per check.
"""
import glob
import json
import os
import stat
import subprocess
import sys

import yaml

render_dir, inventory_json, ca_dir, storepass = sys.argv[1:5]
hostvars = json.load(open(inventory_json))["_meta"]["hostvars"]
ca = os.path.join(ca_dir, "ca.pem")
failures = 0


def check(ok, what, detail=""):
    global failures
    failures += 0 if ok else 1
    print(("PASS " if ok else "FAIL ") + "TLS " + what + ("" if ok else "\n    " + str(detail)))


def tool(*argv):
    done = subprocess.run(argv, capture_output=True, text=True)
    return done.returncode, done.stdout + done.stderr


hosts = sorted(h for h in os.listdir(render_dir) if os.path.isdir(os.path.join(render_dir, h)))
for host in hosts:
    root = os.path.join(render_dir, host)
    confs = glob.glob(os.path.join(root, "etc", "mongo*.conf"))
    if confs:
        want = {"mode": "requireTLS", "certificateKeyFile": "/etc/mongodb/tls/server.pem",
                "CAFile": "/etc/mongodb/tls/ca.pem", "allowConnectionsWithoutCertificates": True}
        got = {os.path.basename(c): (yaml.safe_load(open(c)) or {}).get("net", {}).get("tls") for c in confs}
        check(all(v == want for v in got.values()), "%s: %s require TLS with the deployment's files" % (host, ", ".join(sorted(got))), got)
        pem = os.path.join(root, "etc/mongodb/tls/server.pem")
        rc, out = tool("openssl", "verify", "-CAfile", ca, pem)
        check(rc == 0, "%s: server.pem is signed by the deployment's CA" % host, out)
        check(os.path.exists(pem) and stat.S_IMODE(os.stat(pem).st_mode) == 0o400 and "PRIVATE KEY" in open(pem).read(),
              "%s: server.pem holds the key, mode 0400" % host)
        rc, out = tool("openssl", "x509", "-in", pem, "-noout", "-ext", "subjectAltName,extendedKeyUsage")
        hv = hostvars[host]
        names = ["DNS:" + host, "DNS:localhost", "IP Address:127.0.0.1", "IP Address:" + hv["geoshard_private_ip"]]
        if hv.get("geoshard_public_ip"):
            names.append("IP Address:" + hv["geoshard_public_ip"])
        check(rc == 0 and all(n in out for n in names) and "TLS Web Server Authentication" in out
              and "TLS Web Client Authentication" in out,
              "%s: certificate for %s, server and member (client) use" % (host, ", ".join(names)), out)
    client_conf = os.path.join(root, "etc/geoshard/ycsb-connection.properties")
    if os.path.exists(client_conf):
        urls = [line for line in open(client_conf).read().splitlines() if line.startswith("mongodb.")]
        check(urls and all("tls=true" in u for u in urls), "%s: every client URL asks for TLS" % host, len(urls))
        rc, out = tool("keytool", "-list", "-keystore", os.path.join(root, "etc/geoshard/tls/truststore.p12"),
                       "-storetype", "PKCS12", "-storepass", storepass)
        check(rc == 0 and "geoshard-ca" in out and "trustedCertEntry" in out, "%s: the CA is in the JVM truststore" % host, out)
    leaked = [p for p in glob.glob(os.path.join(root, "**", "*"), recursive=True)
              if os.path.isfile(p) and open(ca_dir + "/ca.key").read().strip() in open(p, errors="ignore").read()]
    check(not leaked, "%s: the CA's key stays on the controller" % host, leaked)
sys.exit(1 if failures else 0)
