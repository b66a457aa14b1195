#!/usr/bin/env python3
"""Helpers for the EC2 part of ./check, against moto's EC2 stand-in on 127.0.0.1
(AWS_ENDPOINT_URL points at it; the credentials are moto's dummies).

  ec2_fake.py prepare KEY_NAME            key pairs, a decoy deployment; prints {region: ami}
  ec2_fake.py verify ID ADMIN_CIDR         tags and security groups of a provisioned deployment
  ec2_fake.py gone ID [ALIVE_ID ...]       ID fully removed; the decoy and ALIVE_IDs untouched
  ec2_fake.py flaky-proxy PORT_FILE REFUSALS
      an HTTP proxy on 127.0.0.1 in front of AWS_ENDPOINT_URL that answers the first REFUSALS
      DeleteSecurityGroup calls of each group with EC2's DependencyViolation (as EC2 does right
      after the termination of the group's instances); writes its port to PORT_FILE and, per
      group, the refusals and the deletion to PORT_FILE.calls
  ec2_fake.py capacity-proxy PORT_FILE ZONE TYPE  the same proxy answering RunInstances of TYPE in ZONE with
      InsufficientInstanceCapacity
  ec2_fake.py placed ID PORT_FILE ZONE TYPE  ZONE was asked for TYPE and refused, and ID's instances of TYPE run elsewhere
  ec2_fake.py refused PORT_FILE REFUSALS ID  every group of ID was refused REFUSALS times, then deleted
  ec2_fake.py disks ID INVENTORY_JSON    the dynamic inventory's geoshard_data_volume_id is each host's /dev/sdf volume
  ec2_fake.py plant-expiry AMI           two instances of other deployments, one past its geoshard_expires_at
  ec2_fake.py reaped                     the one past its expiry is terminated, the other still runs
Prints PASS/FAIL lines (verify, gone, refused).
"""
import base64
import http.server
import json
import os
import sys
import threading
import urllib.error
import urllib.parse
import urllib.request

import boto3

REGIONS = ("us-east-1", "eu-west-1", "ap-northeast-1")
MONGO_PORTS = {27017, 27018, 27019}
# node_exporter (geoshard_node_exporter_port), scraped by the clients: opened like MongoDB's ports.
NODE_EXPORTER_PORT = 9100
OPEN_PORTS = MONGO_PORTS | {NODE_EXPORTER_PORT}
DECOY = "decoy"
# Pools whose instances hold data (standalone, config and shard servers): only they get /dev/sdf.
DATA_POOLS = {"config", "shard"}
# Two other deployments, tagged as provision-ec2.yml tags, one past its expiry (planted).
EXPIRED, UNEXPIRED = "expired-long-ago", "expires-later"


def ec2(region):
    return boto3.client("ec2", region_name=region)


def instances(benchmark_id, region, states=("pending", "running", "stopping", "stopped")):
    found = []
    for reservation in ec2(region).describe_instances(Filters=[
            {"Name": "tag:geoshard_benchmark_id", "Values": [benchmark_id]},
            {"Name": "instance-state-name", "Values": list(states)}])["Reservations"]:
        found.extend(reservation["Instances"])
    return found


def groups(benchmark_id, region):
    return ec2(region).describe_security_groups(
        Filters=[{"Name": "tag:geoshard_benchmark_id", "Values": [benchmark_id]}])["SecurityGroups"]


def prepare(key_name):
    amis = {}
    for region in REGIONS:
        client = ec2(region)
        if not client.describe_key_pairs(Filters=[{"Name": "key-name", "Values": [key_name]}])["KeyPairs"]:
            client.create_key_pair(KeyName=key_name)
        images = [i for i in client.describe_images(Owners=["amazon"])["Images"]
                  if i.get("Architecture") == "x86_64" and i.get("RootDeviceType") == "ebs"]
        amis[region] = sorted(images, key=lambda i: i["ImageId"])[0]["ImageId"]
    # Another deployment in the same account, which no playbook run here may touch.
    if not instances(DECOY, "us-east-1"):
        ec2("us-east-1").run_instances(
            ImageId=amis["us-east-1"], MinCount=1, MaxCount=1, InstanceType="t3.micro",
            TagSpecifications=[{"ResourceType": "instance", "Tags": [
                {"Key": "Name", "Value": "decoy-shard1"}, {"Key": "geoshard_benchmark_id", "Value": DECOY},
                {"Key": "geoshard_pool", "Value": "shard"}, {"Key": "geoshard_shard_index", "Value": "1"}]}])
    print(json.dumps(amis))


def verify(benchmark_id, admin_cidr):
    ok = True
    nodes = {region: instances(benchmark_id, region) for region in REGIONS}
    public = {"%s/32" % i["PublicIpAddress"] for found in nodes.values() for i in found if i.get("PublicIpAddress")}
    problems = []
    for region, found in nodes.items():
        for instance in found:
            tags = {t["Key"]: t["Value"] for t in instance.get("Tags", [])}
            for key in ("Name", "geoshard_benchmark_id", "geoshard_scenario", "geoshard_pool", "geoshard_shard_index"):
                if key not in tags:
                    problems.append("%s lacks tag %s" % (instance["InstanceId"], key))
        used = bool(found)
        sgs = groups(benchmark_id, region)
        if used != bool(sgs):
            problems.append("%s: %d instance(s) but %d security group(s)" % (region, len(found), len(sgs)))
        for sg in sgs:
            from_own = set()
            for rule in sg["IpPermissions"]:
                ports = set(range(rule.get("FromPort", 0), rule.get("ToPort", 65535) + 1))
                cidrs = {r["CidrIp"] for r in rule.get("IpRanges", [])}
                pairs = {p["GroupId"] for p in rule.get("UserIdGroupPairs", [])}
                if "0.0.0.0/0" in cidrs or rule.get("Ipv6Ranges"):
                    problems.append("%s %s open to the world" % (region, sg["GroupId"]))
                elif ports == {22}:
                    if cidrs != {admin_cidr} or pairs:
                        problems.append("%s SSH from %s %s" % (region, sorted(cidrs), sorted(pairs)))
                elif ports <= OPEN_PORTS:
                    if not cidrs <= public or pairs - {sg["GroupId"]}:
                        problems.append("%s port %s from %s %s" % (region, sorted(ports), sorted(cidrs), sorted(pairs)))
                    if sg["GroupId"] in pairs:
                        from_own |= ports
                else:
                    problems.append("%s unexpected ports %s" % (region, sorted(ports)))
            if from_own != OPEN_PORTS:
                problems.append("%s %s opens %s to its own instances, not %s" % (region, sg["GroupId"], sorted(from_own),
                                                                                  sorted(OPEN_PORTS)))
    ok = not problems and any(nodes.values())
    print(("PASS " if ok else "FAIL ") + "EC2 %s: instances tagged, security groups open SSH to the admin CIDR only and "
          "MongoDB's and node_exporter's ports to the deployment's own addresses only" % benchmark_id + ("" if ok else "\n    %s" % problems))
    ttl = []
    for region, found in nodes.items():
        for instance in found:
            client = ec2(region)
            tags = {t["Key"]: t["Value"] for t in instance.get("Tags", [])}
            behaviour = client.describe_instance_attribute(InstanceId=instance["InstanceId"],
                                                           Attribute="instanceInitiatedShutdownBehavior")
            user_data = client.describe_instance_attribute(InstanceId=instance["InstanceId"], Attribute="userData")
            script = base64.b64decode(user_data.get("UserData", {}).get("Value", "")).decode()
            expires = tags.get("geoshard_expires_at", "")
            epoch = [line.strip() for line in script.splitlines() if line.strip().startswith("expires_epoch=")]
            if behaviour["InstanceInitiatedShutdownBehavior"]["Value"] != "terminate":
                ttl.append("%s shuts down to %s" % (instance["InstanceId"], behaviour))
            if not expires or not epoch or "poweroff" not in script or "bootcmd" not in script:
                ttl.append("%s: tag geoshard_expires_at=%r, boot timer %r" % (instance["InstanceId"], expires, epoch))
    placed = []
    for region, found in nodes.items():
        for instance in found:
            tags = {t["Key"]: t["Value"] for t in instance.get("Tags", [])}
            devices = {b["DeviceName"] for b in instance.get("BlockDeviceMappings", [])}
            zone, kind = instance["Placement"]["AvailabilityZone"], instance["InstanceType"]
            if ("/dev/sdf" in devices) != (tags.get("geoshard_pool") in DATA_POOLS):
                placed.append("%s (%s) has devices %s" % (tags.get("Name"), tags.get("geoshard_pool"), sorted(devices)))
            if not ec2(region).describe_instance_type_offerings(LocationType="availability-zone", Filters=[
                    {"Name": "location", "Values": [zone]}, {"Name": "instance-type", "Values": [kind]}])["InstanceTypeOfferings"]:
                placed.append("%s: %s is not offered in %s" % (tags.get("Name"), kind, zone))
            if not instance.get("PublicDnsName"):
                placed.append("%s has no public DNS name" % tags.get("Name"))
    ok_placed = not placed and any(nodes.values())
    print(("PASS " if ok_placed else "FAIL ") + "EC2 %s: a data volume on the config and shard hosts only, every instance "
          "in a zone that offers its type, with a public DNS name" % benchmark_id + ("" if ok_placed else "\n    %s" % placed))
    ok_ttl = not ttl and any(nodes.values())
    print(("PASS " if ok_ttl else "FAIL ") + "EC2 %s: every instance terminates itself when it shuts down, has a power-off "
          "timer set at every boot and a geoshard_expires_at tag" % benchmark_id + ("" if ok_ttl else "\n    %s" % ttl))
    return 0 if ok and ok_ttl and ok_placed else 1


def gone(benchmark_id, alive):
    left = [i["InstanceId"] for r in REGIONS for i in instances(benchmark_id, r)]
    left_groups = [g["GroupId"] for r in REGIONS for g in groups(benchmark_id, r)]
    survivors = {other: sum(len(instances(other, r)) for r in REGIONS) for other in list(alive) + [DECOY]}
    ok = not left and not left_groups and all(survivors.values())
    print(("PASS " if ok else "FAIL ") + "teardown.yml %s removed its instances and security groups only (still running: %s)"
          % (benchmark_id, ", ".join("%s=%d" % kv for kv in sorted(survivors.items())))
          + ("" if ok else "\n    left: %s %s" % (left, left_groups)))
    return 0 if ok else 1


def flaky_proxy(port_file, refusals, no_capacity_zone=None, no_capacity_type=None):
    upstream = os.environ["AWS_ENDPOINT_URL"].rstrip("/")
    calls = {}
    lock = threading.Lock()
    zone_of_subnet = {}

    def subnet_zone(subnet):
        if subnet not in zone_of_subnet:
            for region in REGIONS:
                for item in boto3.client("ec2", region_name=region).describe_subnets()["Subnets"]:
                    zone_of_subnet[item["SubnetId"]] = item["AvailabilityZone"]
        return zone_of_subnet.get(subnet)

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            form = urllib.parse.parse_qs(body.decode())
            subnet = (form.get("NetworkInterface.1.SubnetId") or form.get("SubnetId") or [""])[0]
            if no_capacity_zone and form.get("Action") == ["RunInstances"] and subnet_zone(subnet) == no_capacity_zone \
                    and form.get("InstanceType", [""])[0] == no_capacity_type:
                with lock:
                    calls.setdefault(no_capacity_zone, []).append(form.get("InstanceType", ["?"])[0])
                    with open(port_file + ".calls", "w") as out:
                        json.dump(calls, out)
                message = ("<Response><Errors><Error><Code>InsufficientInstanceCapacity</Code><Message>We currently do not "
                           "have sufficient %s capacity in the Availability Zone you requested (%s).</Message></Error>"
                           "</Errors><RequestID>geoshard-check</RequestID></Response>"
                           % (form.get("InstanceType", ["?"])[0], no_capacity_zone)).encode()
                self.send_response(500)
                self.send_header("Content-Type", "text/xml")
                self.send_header("Content-Length", str(len(message)))
                self.end_headers()
                self.wfile.write(message)
                return
            if form.get("Action") == ["DeleteSecurityGroup"]:
                group = form.get("GroupId", form.get("GroupName", ["?"]))[0]
                with lock:
                    calls.setdefault(group, []).append("refused" if len(calls.get(group, [])) < refusals else "deleted")
                    outcome = calls[group][-1]
                    with open(port_file + ".calls", "w") as out:
                        json.dump(calls, out)
                if outcome == "refused":
                    message = ("<Response><Errors><Error><Code>DependencyViolation</Code><Message>resource %s has a "
                               "dependent object</Message></Error></Errors><RequestID>geoshard-check</RequestID></Response>"
                               % group).encode()
                    self.send_response(400)
                    self.send_header("Content-Type", "text/xml")
                    self.send_header("Content-Length", str(len(message)))
                    self.end_headers()
                    self.wfile.write(message)
                    return
            headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "content-length")}
            request = urllib.request.Request(upstream + self.path, data=body, headers=headers, method="POST")
            try:
                response = urllib.request.urlopen(request, timeout=60)
                status, payload, kind = response.status, response.read(), response.headers.get("Content-Type", "text/xml")
            except urllib.error.HTTPError as error:
                status, payload, kind = error.code, error.read(), error.headers.get("Content-Type", "text/xml")
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    with open(port_file, "w") as out:
        out.write(str(server.server_address[1]))
    server.serve_forever()


def placed(benchmark_id, port_file, refused_zone, refused_type):
    """The instances of the type refused run outside the zone that had no capacity for it, which was asked first."""
    zones = {}
    for region in REGIONS:
        for reservation in boto3.client("ec2", region_name=region).describe_instances(Filters=[
                {"Name": "tag:geoshard_benchmark_id", "Values": [benchmark_id]},
                {"Name": "instance-state-name", "Values": ["pending", "running"]}])["Reservations"]:
            for instance in reservation["Instances"]:
                if instance["InstanceType"] == refused_type:
                    zones[instance["InstanceId"]] = instance["Placement"]["AvailabilityZone"]
    calls = json.load(open(port_file + ".calls")) if os.path.exists(port_file + ".calls") else {}
    ok = bool(zones) and refused_zone not in zones.values() and bool(calls.get(refused_zone))
    print(("PASS " if ok else "FAIL ") + "%s: %s refused for capacity in %s (%d RunInstances), started in %s"
          % (benchmark_id, refused_type, refused_zone, len(calls.get(refused_zone, [])),
             ", ".join(sorted(set(zones.values()))) or "no zone"))
    return 0 if ok else 1


def refused(port_file, refusals, benchmark_id):
    calls = json.load(open(port_file + ".calls")) if os.path.exists(port_file + ".calls") else {}
    want = ["refused"] * refusals + ["deleted"]
    ok = bool(calls) and all(history == want for history in calls.values())
    print(("PASS " if ok else "FAIL ") + "teardown.yml %s deleted each security group after %d DependencyViolation "
          "refusals (back-off)" % (benchmark_id, refusals) + ("" if ok else "\n    %s" % calls))
    return 0 if ok else 1


def disks(benchmark_id, inventory_json):
    hostvars = json.load(open(inventory_json))["_meta"]["hostvars"]

    def plain(value):  # ansible-inventory --list wraps values from the plugin as {"__ansible_unsafe": ...}
        return value.get("__ansible_unsafe") if isinstance(value, dict) else value

    wrong = {}
    for region in REGIONS:
        for instance in instances(benchmark_id, region):
            name = {t["Key"]: t["Value"] for t in instance["Tags"]}["Name"]
            volume = {b["DeviceName"]: b["Ebs"]["VolumeId"] for b in instance["BlockDeviceMappings"]}.get("/dev/sdf", "")
            got = plain(hostvars.get(name, {}).get("geoshard_data_volume_id"))
            if got != volume:
                wrong[name] = (got, volume)
    ok = not wrong and bool(hostvars)
    print(("PASS " if ok else "FAIL ") + "the dynamic inventory gives each host of %s the id of its /dev/sdf volume "
          "(geoshard_data_volume_id)" % benchmark_id + ("" if ok else "\n    %s" % wrong))
    return 0 if ok else 1


def plant_expiry(ami):
    for benchmark_id, expires in ((EXPIRED, "2020-01-01T00:00:00Z"), (UNEXPIRED, "2999-01-01T00:00:00Z")):
        if not instances(benchmark_id, "eu-west-1"):
            ec2("eu-west-1").run_instances(
                ImageId=ami, MinCount=1, MaxCount=1, InstanceType="t3.micro",
                TagSpecifications=[{"ResourceType": "instance", "Tags": [
                    {"Key": "Name", "Value": benchmark_id + "-shard1"}, {"Key": "geoshard_benchmark_id", "Value": benchmark_id},
                    {"Key": "geoshard_pool", "Value": "shard"}, {"Key": "geoshard_expires_at", "Value": expires}]}])
    return 0


def reaped():
    left = {b: len(instances(b, "eu-west-1")) for b in (EXPIRED, UNEXPIRED)}
    ok = left == {EXPIRED: 0, UNEXPIRED: 1}
    print(("PASS " if ok else "FAIL ") + "provision-ec2.yml terminated the instance of another deployment past its "
          "geoshard_expires_at and left the one not yet expired (running: %s)" % left)
    return 0 if ok else 1


if __name__ == "__main__":
    command = sys.argv[1]
    if command == "prepare":
        prepare(sys.argv[2])
        sys.exit(0)
    if command == "verify":
        sys.exit(verify(sys.argv[2], sys.argv[3]))
    if command == "gone":
        sys.exit(gone(sys.argv[2], sys.argv[3:]))
    if command == "capacity-proxy":
        flaky_proxy(sys.argv[2], 0, sys.argv[3], sys.argv[4])
    if command == "placed":
        sys.exit(placed(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]))
    if command == "flaky-proxy":
        flaky_proxy(sys.argv[2], int(sys.argv[3]))
    if command == "disks":
        sys.exit(disks(sys.argv[2], sys.argv[3]))
    if command == "plant-expiry":
        sys.exit(plant_expiry(sys.argv[2]))
    if command == "reaped":
        sys.exit(reaped())
    if command == "refused":
        sys.exit(refused(sys.argv[2], int(sys.argv[3]), sys.argv[4]))
    sys.exit("unknown command " + command)
