#!/usr/bin/python
# -*- coding: utf-8 -*-
# Part of the geoshard project (ansible/library): used by the ec2_cluster role.

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: geoshard_ec2_zones
short_description: The availability zones of a region that offer every given instance type
description:
  - Asks EC2 (DescribeInstanceTypeOfferings, location type availability-zone) which zones of
    C(region) offer each of C(instance_types) and returns the zones that offer all of them, in
    name order. Not every zone offers every type, so the first zone by name may not do.
  - Fails with one sentence naming the region and the types when no zone offers them all.
  - Uses the usual AWS credentials chain and AWS_ENDPOINT_URL; changes nothing.
options:
  region:
    description: The region, for example C(us-east-1).
    type: str
    required: true
  instance_types:
    description: The instance types that must all be offered in the zone.
    type: list
    elements: str
    required: true
requirements: [boto3]
author: geoshard
"""

EXAMPLES = r"""
- name: Find the zones of us-east-1 that offer the deployment's types
  geoshard_ec2_zones:
    region: us-east-1
    instance_types: [m6i.large, r6i.xlarge]
  register: zones
"""

RETURN = r"""
zones:
  description: The zones offering every type, in name order (never empty on success).
  returned: success
  type: list
  elements: str
offered:
  description: Per instance type, the zones of the region that offer it.
  returned: always
  type: dict
"""

from ansible.module_utils.basic import AnsibleModule, missing_required_lib

BOTO3_ERROR = None
try:
    import boto3
except ImportError as error:  # reported by the module
    BOTO3_ERROR = error


def offered_zones(region, instance_types):
    client = boto3.client("ec2", region_name=region)
    offered = {name: [] for name in instance_types}
    for page in client.get_paginator("describe_instance_type_offerings").paginate(
            LocationType="availability-zone",
            Filters=[{"Name": "instance-type", "Values": sorted(offered)}]):
        for offering in page["InstanceTypeOfferings"]:
            offered.setdefault(offering["InstanceType"], []).append(offering["Location"])
    return {name: sorted(set(zones)) for name, zones in offered.items()}


def main():
    module = AnsibleModule(
        argument_spec=dict(
            region=dict(type="str", required=True),
            instance_types=dict(type="list", elements="str", required=True),
        ),
        supports_check_mode=True,
    )
    if BOTO3_ERROR is not None:
        module.fail_json(msg=missing_required_lib("boto3"), exception=str(BOTO3_ERROR))
    region = module.params["region"]
    types = sorted(set(module.params["instance_types"]))
    try:
        offered = offered_zones(region, types)
    except Exception as error:  # botocore's errors: credentials, endpoint, throttling
        module.fail_json(msg="Could not list the instance type offerings of %s: %s" % (region, error))
    common = set.intersection(*(set(offered[name]) for name in types)) if types else set()
    if not common:
        module.fail_json(msg="No availability zone of %s offers all of %s (offered: %s)." % (
            region, ", ".join(types), "; ".join("%s in %s" % (n, ", ".join(offered[n]) or "none") for n in types)),
            offered=offered)
    module.exit_json(changed=False, zones=sorted(common), offered=offered)


if __name__ == "__main__":
    main()
