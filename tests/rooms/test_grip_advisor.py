"""The search pool (app/grip/service/advisor.py) with real worker processes: its bound,
its priorities, deadlines, and a worker that dies. Jobs here are standard-library
functions (`time.sleep`, `time.monotonic`, `os._exit`), so their timing is known."""

from __future__ import annotations

import asyncio
import os
import time

import pytest

from app.grip.service.advisor import BACKGROUND, URGENT, Busy, _Pool
from tests.support.waiting import wait_until_async


def run(coro):
    return asyncio.run(coro)


def test_jobs_past_the_bound_are_refused_at_once():
    async def main():
        pool = _Pool("test", 1, limit=2)
        try:
            first = asyncio.create_task(pool.run(time.sleep, 0.3))
            second = asyncio.create_task(pool.run(time.sleep, 0.0))
            await asyncio.sleep(0)
            t0 = time.monotonic()
            with pytest.raises(Busy):
                await pool.run(time.sleep, 0.0)
            refused_in = time.monotonic() - t0
            await asyncio.gather(first, second)
            unbounded = await pool.run(time.monotonic, bounded=False)  # the server's own work
            return refused_in, unbounded
        finally:
            pool.stop()

    refused_in, unbounded = run(main())
    assert refused_in < 0.1 and unbounded > 0


def test_urgent_work_goes_before_background_work_queued_earlier():
    async def main():
        pool = _Pool("test", 1, limit=10)
        try:
            await pool.run(time.monotonic)  # the worker is up
            busy = asyncio.create_task(pool.run(time.sleep, 0.3))
            await wait_until_async(lambda: pool.running == 1)  # the worker has the busy job
            background = asyncio.create_task(pool.run(time.monotonic, bounded=False, priority=BACKGROUND))
            await wait_until_async(lambda: pool._queue)  # the background job is queued first
            urgent = asyncio.create_task(pool.run(time.monotonic, priority=URGENT))
            await busy
            return await background, await urgent
        finally:
            pool.stop()

    background_ran, urgent_ran = run(main())
    assert urgent_ran < background_ran


def test_a_job_that_cannot_start_before_it_expires_is_refused():
    async def main():
        pool = _Pool("test", 1, limit=10)
        try:
            await pool.run(time.monotonic)
            busy = asyncio.create_task(pool.run(time.sleep, 0.4))
            await wait_until_async(lambda: pool.running == 1)  # the only worker has the busy job
            with pytest.raises(Busy, match="free in time"):
                await pool.run(time.monotonic, expires=time.monotonic() + 0.1)
            await busy
            return await pool.run(time.monotonic, expires=time.monotonic() + 5)  # a free worker: runs
        finally:
            pool.stop()

    assert run(main()) > 0


def test_a_worker_that_dies_fails_its_job_and_is_replaced():
    async def main():
        pool = _Pool("test", 1, limit=10)
        try:
            first_pid = await pool.run(os.getpid)
            with pytest.raises(Busy, match="stopped"):
                await pool.run(os._exit, 3)
            return first_pid, await pool.run(os.getpid)
        finally:
            pool.stop()

    first_pid, second_pid = run(main())
    assert first_pid != second_pid and second_pid != os.getpid()


def test_a_job_raising_gives_its_error_to_the_caller_and_the_worker_goes_on():
    async def main():
        pool = _Pool("test", 1, limit=10)
        try:
            with pytest.raises(ValueError):
                await pool.run(int, "not a number")
            return await pool.run(int, "12")
        finally:
            pool.stop()

    assert run(main()) == 12


def test_workers_run_at_a_lower_priority_than_the_server():
    async def main():
        pool = _Pool("test", 1, limit=10)
        try:
            return await pool.run(os.nice, 0)
        finally:
            pool.stop()

    assert run(main()) == min(19, os.nice(0) + 10)


@pytest.mark.skipif(not hasattr(os, "SCHED_IDLE"), reason="Linux scheduling policy")
def test_workers_run_only_on_otherwise_idle_cores():
    async def main():
        pool = _Pool("test", 1, limit=10)
        try:
            return await pool.run(os.sched_getscheduler, 0)
        finally:
            pool.stop()

    assert run(main()) == os.SCHED_IDLE


def test_a_job_not_answered_in_time_is_given_up_and_the_worker_goes_on():
    async def main():
        pool = _Pool("test", 1, limit=10)
        try:
            await pool.run(time.monotonic)
            t0 = time.monotonic()
            with pytest.raises(Busy, match="in time"):
                await pool.run(time.sleep, 0.5, give_up=time.monotonic() + 0.1)
            gave_up_after = time.monotonic() - t0
            after = await pool.run(time.monotonic)  # runs once the given-up job is done
            return gave_up_after, after - t0
        finally:
            pool.stop()

    gave_up_after, next_job_ran = run(main())
    assert gave_up_after < 0.4 <= next_job_ran
