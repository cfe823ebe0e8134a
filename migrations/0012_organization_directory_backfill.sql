-- Organizations created before sharding live on DB, the database this runs on first: enter them in its directory.
-- On any other shard the organizations table is empty when this runs (a new database), so it inserts nothing.
INSERT INTO organization_directory (organization_id, partner_id, external_id, shard, created_at, updated_at)
SELECT id, partner_id, external_id, 'DB', created_at, updated_at FROM organizations;
