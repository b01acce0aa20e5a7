"""The suite's pytest-xdist grouping (tests/conftest.py) holds: under ``-n 2`` a test marked ``xdist_group`` and a test
using a module-scoped fixture of its own module carry their group in the node id, which is what xdist's ``loadgroup``
scheduler groups by. Under pytest 9 xdist's own renaming is lost (it sets ``item._nodeid``, pytest 9 keeps
``item._id``): every group was split over both workers and its module fixtures (the worksheets' fast runs, every
claim of the verifier) built once per worker. Without xdist there is nothing to check (skipped).

Mutant (checked by hand, 2026-11-26): the conftest before this test (no ``_group_ids``, no ``pytest_configure_node``)
fails both tests under ``-n 2``; it passed the whole suite meanwhile, at twice the work for each shared fixture."""

import pytest


def _grouped_run(request):
    wi = getattr(request.config, "workerinput", None)
    if wi is None:
        pytest.skip("not under pytest-xdist")
    args = [str(a) for a in request.config.invocation_params.args]
    dist = [a for a in args if a.startswith("--dist")]  # README's `-n 2` gives none: loadgroup (conftest)
    if dist and not any("loadgroup" in a for a in dist + args[args.index(dist[-1]) + 1:][:1]):
        pytest.skip("xdist runs with another --dist mode")


@pytest.mark.xdist_group("xdist-guard")
def test_a_marked_test_carries_its_group(request):
    _grouped_run(request)
    assert request.node.nodeid.endswith("@xdist-guard"), request.node.nodeid


@pytest.fixture(scope="module")
def shared():
    return object()


def test_a_module_fixture_user_joins_its_module_group(request, shared):
    _grouped_run(request)
    assert request.node.nodeid.endswith("@module-fixture:test_xdist_groups.py"), request.node.nodeid
