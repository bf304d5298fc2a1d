/**
 * The `near` filter finds exactly the events within a great-circle radius: across the
 * antimeridian, around both poles, at the edge of the circle, and never events without
 * coordinates. Runs on PGlite and, when configured, PostgreSQL.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import type { Sql } from "postgres";
import { openTestDatabase, testBackends } from "../../dev-support/databases.ts";
import { insertWriterKey } from "../../dev-support/writer-key.ts";
import { sampleEvent } from "../support/events.ts";
import { EventInput } from "../../shared/event-schema.ts";
import { upsertEvents } from "../../server/db/events.ts";
import { listEvents } from "../../server/db/event-reads.ts";
import { boundingBox, distanceKm, type NearFilter } from "../../server/db/near-condition.ts";

type Place = { name: string; latitude?: number; longitude?: number };

async function seedPlaces(sql: Sql, places: Place[]): Promise<void> {
  const writer = await insertWriterKey(sql, "places");
  const events = places.map(({ name, ...where }, i) =>
    EventInput.parse(sampleEvent(i, { title: name, ...where }))
  );
  for (let i = 0; i < events.length; i += 100) {
    await upsertEvents(sql, writer, events.slice(i, i + 100));
  }
}

async function near(sql: Sql, filter: NearFilter): Promise<string[]> {
  const page = await listEvents(sql, { near: filter }, { limit: 1000 });
  return page.events.map((e) => e.title).sort();
}

const FIJI: Place[] = [
  { name: "Suva", latitude: -18.1416, longitude: 178.4419 },
  { name: "Taveuni east", latitude: -16.85, longitude: -179.95 },
  { name: "Taveuni west", latitude: -16.85, longitude: 179.9 },
  { name: "Vanuatu", latitude: -17.7333, longitude: 168.3273 },
  { name: "Samoa", latitude: -13.8333, longitude: -171.75 },
  { name: "Online only" },
];

const POLES: Place[] = [
  { name: "North 89.9/120", latitude: 89.9, longitude: 120 },
  { name: "North 89.7/-170", latitude: 89.7, longitude: -170 },
  { name: "North 89.0/180", latitude: 89.0, longitude: 180 },
  { name: "North 88.5/0", latitude: 88.5, longitude: 0 },
  { name: "North pole", latitude: 90, longitude: 0 },
  { name: "South pole", latitude: -90, longitude: 45 },
  { name: "South 89.5/-90", latitude: -89.5, longitude: -90 },
];

for (const kind of testBackends()) {
  Deno.test(`[${kind}] near finds events on both sides of the antimeridian, and no others`, async () => {
    const db = await openTestDatabase(kind);
    try {
      await seedPlaces(db.sql, FIJI);
      // From Taveuni's east coast (west of the line), 20 km reaches across it.
      assert.deepEqual(
        await near(db.sql, { latitude: -16.85, longitude: 179.98, radius_km: 20 }),
        ["Taveuni east", "Taveuni west"],
      );
      // From the east side, 300 km reaches Suva across the line but not Vanuatu (over 1,000 km).
      assert.deepEqual(
        await near(db.sql, { latitude: -16.85, longitude: -179.95, radius_km: 300 }),
        ["Suva", "Taveuni east", "Taveuni west"],
      );
      assert.deepEqual(
        await near(db.sql, { latitude: -17, longitude: 180, radius_km: 1000 }),
        ["Samoa", "Suva", "Taveuni east", "Taveuni west"],
      );
      assert.deepEqual(
        await near(db.sql, { latitude: -17, longitude: -180, radius_km: 1000 }),
        ["Samoa", "Suva", "Taveuni east", "Taveuni west"],
      );
    } finally {
      await db.close();
    }
  });

  Deno.test(`[${kind}] near a pole reaches across it to every longitude`, async () => {
    const db = await openTestDatabase(kind);
    try {
      await seedPlaces(db.sql, POLES);
      // 89.5°N is 55.6 km from the pole: 100 km reaches events beyond it on the far side.
      assert.deepEqual(
        await near(db.sql, { latitude: 89.5, longitude: 0, radius_km: 100 }),
        ["North 89.7/-170", "North 89.9/120", "North pole"],
      );
      // 89.0°N on the opposite meridian is 55.6 + 111.2 km away, through the pole.
      assert.deepEqual(
        await near(db.sql, { latitude: 89.5, longitude: 0, radius_km: 170 }),
        ["North 88.5/0", "North 89.0/180", "North 89.7/-170", "North 89.9/120", "North pole"],
      );
      assert.deepEqual(
        await near(db.sql, { latitude: 90, longitude: 0, radius_km: 1 }),
        ["North pole"],
      );
      assert.deepEqual(
        await near(db.sql, { latitude: -89.8, longitude: 90, radius_km: 90 }),
        ["South 89.5/-90", "South pole"],
      );
    } finally {
      await db.close();
    }
  });

  Deno.test(`[${kind}] near copes with the smallest coordinates a float can hold`, async () => {
    const db = await openTestDatabase(kind);
    try {
      // PostgreSQL refuses a product of floats that underflows to zero; this must not be a 500.
      await seedPlaces(db.sql, [
        { name: "Null Island", latitude: 5e-324, longitude: -5e-324 },
        { name: "Almost", latitude: 1e-300, longitude: 2.2e-308 },
      ]);
      assert.deepEqual(
        await near(db.sql, { latitude: 0, longitude: 0, radius_km: 1 }),
        ["Almost", "Null Island"],
      );
      assert.deepEqual(
        await near(db.sql, { latitude: 5e-324, longitude: 1e-310, radius_km: 0.001 }),
        ["Almost", "Null Island"],
      );
    } finally {
      await db.close();
    }
  });

  Deno.test(`[${kind}] near agrees with the great-circle distance for random points and circles`, async () => {
    const db = await openTestDatabase(kind);
    try {
      // Points clustered where boxes are hardest: near the poles and the antimeridian.
      const coordinate = fc.record({
        latitude: fc.oneof(
          fc.double({ min: -90, max: 90, noNaN: true }),
          fc.double({ min: 80, max: 90, noNaN: true }),
          fc.double({ min: -90, max: -80, noNaN: true }),
        ),
        longitude: fc.oneof(
          fc.double({ min: -180, max: 180, noNaN: true }),
          fc.double({ min: 170, max: 180, noNaN: true }),
          fc.double({ min: -180, max: -170, noNaN: true }),
        ),
      });
      const points = fc.sample(coordinate, { numRuns: 400, seed: 7 });
      await seedPlaces(db.sql, points.map((p, i) => ({ name: `p${i}`, ...p })));
      const circles = fc.sample(
        fc.record({
          latitude: coordinate.map((c) => c.latitude),
          longitude: coordinate.map((c) => c.longitude),
          radius_km: fc.double({ min: 0.001, max: 1000, noNaN: true }),
        }),
        { numRuns: 60, seed: 11 },
      );
      for (const circle of circles) {
        const expected = points
          .map((p, i) => ({ name: `p${i}`, d: distanceKm(circle, p) }))
          // Points within a metre of the edge could fall either way by rounding.
          .filter((p) => Math.abs(p.d - circle.radius_km) > 0.001);
        const inside = new Set(expected.filter((p) => p.d < circle.radius_km).map((p) => p.name));
        const found = new Set(await near(db.sql, circle));
        for (const p of expected) {
          assert.equal(
            found.has(p.name),
            inside.has(p.name),
            `${p.name} at ${p.d} km from ${JSON.stringify(circle)}`,
          );
        }
      }
    } finally {
      await db.close();
    }
  });
}

Deno.test("the bounding box holds every point on the circle, split at the antimeridian", () => {
  for (
    const center of [
      { latitude: 0, longitude: 0 },
      { latitude: 60, longitude: 179.5 },
      { latitude: -45, longitude: -179.9 },
      { latitude: 85, longitude: 10 },
    ]
  ) {
    for (const radius_km of [1, 50, 500, 1000]) {
      const box = boundingBox({ ...center, radius_km });
      // Walk the circle's edge: each point on it lies in the box.
      for (let bearing = 0; bearing < 360; bearing += 1) {
        const p = destination(center, radius_km, bearing);
        assert.ok(p.latitude >= box.minLatitude && p.latitude <= box.maxLatitude);
        assert.ok(
          box.longitudeRanges.length === 0 ||
            box.longitudeRanges.some(([w, e]) => p.longitude >= w && p.longitude <= e),
          `${JSON.stringify(p)} outside ${JSON.stringify(box)}`,
        );
      }
    }
  }
  assert.equal(
    boundingBox({ latitude: 60, longitude: 179.5, radius_km: 500 }).longitudeRanges
      .length,
    2,
  );
  assert.deepEqual(
    boundingBox({ latitude: 85, longitude: 10, radius_km: 1000 }).longitudeRanges,
    [],
  );
});

/** The point `km` away from `from` along an initial bearing (degrees), longitude in -180..180. */
function destination(from: { latitude: number; longitude: number }, km: number, bearing: number) {
  const r = Math.PI / 180;
  const angle = km / 6371.0088;
  const lat1 = from.latitude * r;
  const lat2 = Math.asin(
    Math.sin(lat1) * Math.cos(angle) + Math.cos(lat1) * Math.sin(angle) * Math.cos(bearing * r),
  );
  const lon2 = from.longitude * r + Math.atan2(
    Math.sin(bearing * r) * Math.sin(angle) * Math.cos(lat1),
    Math.cos(angle) - Math.sin(lat1) * Math.sin(lat2),
  );
  const longitude = ((lon2 / r + 540) % 360) - 180;
  return { latitude: lat2 / r, longitude };
}
