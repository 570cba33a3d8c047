#!/usr/bin/env bash
# Swift 6.2's default-MainActor modules (issue 32): the fixture package Tests/Fixtures/DefaultMainActor
# sets `.defaultIsolation(MainActor.self)` and uses `@Table`, the query builder, a queue and a
# `LiveQuery`. It must build without a warning in its own code, and run.
set -euo pipefail
cd "$(dirname "$0")/.."
fixture=Tests/Fixtures/DefaultMainActor
swift build --package-path "$fixture" 2>&1 | tee /tmp/slate-main-actor-build.log | tail -n 2
if grep -E "warning:" /tmp/slate-main-actor-build.log | grep -vE "/\.build[^/]*/|/checkouts/" \
    | grep -E "$fixture|^macro expansion|^$PWD/Sources"; then
    echo "warnings in the default-MainActor fixture"
    exit 1
fi
swift run --skip-build --package-path "$fixture" | tee /tmp/slate-main-actor.log
grep -q "DefaultMainActorFixture: 3 players" /tmp/slate-main-actor.log
