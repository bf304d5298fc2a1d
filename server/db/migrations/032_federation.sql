-- ActivityPub federation (docs/federation.md): Fedify's key-value store and message queue, the
-- actors and their followers, the objects and activities published, the blocked domains, and
-- the outbox of events to look at again, filled by triggers in the transaction of each change.

CREATE TABLE federation_kv (
  key text PRIMARY KEY,
  value jsonb NOT NULL,
  expires_at timestamptz
);

CREATE TABLE federation_queue (
  id bigserial PRIMARY KEY,
  message jsonb NOT NULL,
  ordering_key text,
  deliver_at timestamptz NOT NULL DEFAULT now(),
  -- Taken by a worker until then; a worker that dies leaves it to be taken again.
  locked_until timestamptz
);
CREATE INDEX federation_queue_due_idx ON federation_queue (deliver_at);
CREATE INDEX federation_queue_ordering_idx ON federation_queue (ordering_key, id)
  WHERE ordering_key IS NOT NULL;

CREATE TABLE federation_actors (
  handle text PRIMARY KEY CHECK (handle ~ '^[a-z0-9]([a-z0-9-]*[a-z0-9])?$'),
  kind text NOT NULL CHECK (kind IN ('events', 'topic', 'city')),
  -- The topic or the city as events name it, shown as the actor's name.
  label text NOT NULL,
  -- For a city: its slug and country, which find the actor again.
  city_slug text,
  country text,
  public_key jsonb,
  private_key jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX federation_actors_city_idx ON federation_actors (city_slug, country)
  WHERE kind = 'city';

CREATE TABLE federation_followers (
  actor_handle text NOT NULL REFERENCES federation_actors (handle) ON DELETE CASCADE,
  follower_id text NOT NULL,
  inbox text NOT NULL,
  shared_inbox text,
  domain text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (actor_handle, follower_id)
);
CREATE INDEX federation_followers_domain_idx ON federation_followers (domain);

CREATE TABLE federation_blocks (
  domain text PRIMARY KEY,
  blocked_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- One published object per real-world event: the listing it shows now (event_id) may change
-- within a duplicate group, and may be gone (deleted_at set, a Tombstone).
CREATE TABLE federation_objects (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  event_id uuid NOT NULL,
  snapshot jsonb NOT NULL,
  content_hash text NOT NULL,
  -- The topic and city actors that announced it.
  announced_by text[] NOT NULL DEFAULT '{}',
  published_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE INDEX federation_objects_event_idx ON federation_objects (event_id)
  WHERE deleted_at IS NULL;

-- Each actor's outbox, newest first; sent_at is null until handed to the delivery queue.
CREATE TABLE federation_activities (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  seq bigserial NOT NULL UNIQUE,
  actor_handle text NOT NULL REFERENCES federation_actors (handle),
  kind text NOT NULL CHECK (kind IN ('Create', 'Update', 'Delete', 'Announce')),
  object_id uuid NOT NULL REFERENCES federation_objects (id),
  published timestamptz NOT NULL DEFAULT now(),
  sent_at timestamptz
);
CREATE INDEX federation_activities_outbox_idx ON federation_activities (actor_handle, seq);
CREATE INDEX federation_activities_unsent_idx ON federation_activities (seq)
  WHERE sent_at IS NULL;

-- Whether federation runs: the triggers below record nothing while it is off.
CREATE TABLE federation_switch (
  only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  enabled boolean NOT NULL
);
INSERT INTO federation_switch (enabled) VALUES (false);

-- Events to look at again: written by triggers in the transaction of the change itself (a push,
-- a deletion, a trust decision, a regrouping), so that no change is lost to a crash.
CREATE TABLE federation_pending (
  id bigserial PRIMARY KEY,
  event_id uuid NOT NULL,
  queued_at timestamptz NOT NULL DEFAULT now()
);

CREATE FUNCTION federation_on() RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT coalesce((SELECT enabled FROM federation_switch), false)
$$;

CREATE FUNCTION federation_events_written() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF federation_on() THEN
    INSERT INTO federation_pending (event_id) SELECT n.id FROM written n;
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION federation_events_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF federation_on() THEN
    INSERT INTO federation_pending (event_id)
    SELECT n.id FROM written n JOIN previous o ON o.id = n.id
    WHERE n.content_hash IS DISTINCT FROM o.content_hash
       OR n.last_key_id IS DISTINCT FROM o.last_key_id;
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION federation_events_gone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF federation_on() THEN
    INSERT INTO federation_pending (event_id) SELECT o.id FROM previous o;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER federation_events_inserted AFTER INSERT ON events
  REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION federation_events_written();
CREATE TRIGGER federation_events_updated AFTER UPDATE ON events
  REFERENCING OLD TABLE AS previous NEW TABLE AS written
  FOR EACH STATEMENT EXECUTE FUNCTION federation_events_changed();
CREATE TRIGGER federation_events_deleted AFTER DELETE ON events
  REFERENCING OLD TABLE AS previous FOR EACH STATEMENT EXECUTE FUNCTION federation_events_gone();

-- A group's shown listing may change: its members are looked at again.
CREATE FUNCTION federation_members_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF federation_on() THEN
    INSERT INTO federation_pending (event_id) SELECT n.event_id FROM written n;
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION federation_members_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF federation_on() THEN
    INSERT INTO federation_pending (event_id) SELECT o.event_id FROM previous o;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER federation_members_inserted AFTER INSERT ON event_group_members
  REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION federation_members_added();
CREATE TRIGGER federation_members_updated AFTER UPDATE ON event_group_members
  REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION federation_members_added();
CREATE TRIGGER federation_members_deleted AFTER DELETE ON event_group_members
  REFERENCING OLD TABLE AS previous
  FOR EACH STATEMENT EXECUTE FUNCTION federation_members_removed();

-- Trusting a key sends its upcoming events; untrusting or revoking it withdraws what it sent.
CREATE FUNCTION federation_key_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF federation_on() THEN
    INSERT INTO federation_pending (event_id)
    SELECT e.id FROM events e
    WHERE e.last_key_id = NEW.id
      AND (coalesce(e.ends_at, e.starts_at) >= now()
           OR EXISTS (SELECT 1 FROM federation_objects f
                      WHERE f.event_id = e.id AND f.deleted_at IS NULL));
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER federation_key_trust_changed AFTER UPDATE OF trusted, revoked_at ON api_keys
  FOR EACH ROW WHEN (OLD.trusted IS DISTINCT FROM NEW.trusted
                     OR OLD.revoked_at IS DISTINCT FROM NEW.revoked_at)
  EXECUTE FUNCTION federation_key_changed();
