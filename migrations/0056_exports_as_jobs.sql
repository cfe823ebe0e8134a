-- Exports are jobs (src/features/exports/export-chunk.ts): every export has the jobs row of its id, which its chunks
-- move. Exports created before have one written here, as far as their row says: a finished one ended at its last
-- chunk (FAILED at the chunk after its last done), a running one at its last chunk done.
INSERT INTO `jobs` (`id`, `organization_id`, `kind`, `status`, `subject`, `step`, `step_index`, `steps`, `progress_permille`, `error`, `error_code`, `created_at`, `updated_at`, `finished_at`)
SELECT e.`id`, e.`organization_id`, 'EXPORT', e.`status`, e.`id`,
  CASE WHEN e.`status` = 'FAILED' THEN 'chunk-' || (e.`chunk` + 1) WHEN e.`chunk` > 0 THEN 'chunk-' || e.`chunk` END,
  CASE WHEN e.`status` = 'FAILED' THEN e.`chunk` + 1 ELSE e.`chunk` END,
  CASE WHEN e.`status` = 'SUCCEEDED' THEN e.`chunk` END,
  CASE WHEN e.`status` = 'SUCCEEDED' THEN 1000 ELSE 0 END,
  e.`error`, CASE WHEN e.`status` = 'FAILED' THEN 'JOB_FAILED' END,
  e.`created_at`, e.`updated_at`, e.`finished_at`
FROM `exports` e
WHERE e.`deleted_at` IS NULL AND NOT EXISTS (SELECT 1 FROM `jobs` j WHERE j.`id` = e.`id`);
