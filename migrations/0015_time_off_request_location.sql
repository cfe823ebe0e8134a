ALTER TABLE `time_off_requests` ADD `location_id` text REFERENCES locations(id);--> statement-breakpoint
-- Requests made before the field existed are placed at their worker's first location, as a new request is by default.
UPDATE `time_off_requests` SET `location_id` = (
  SELECT json_extract(s.`location_ids`, '$[0]') FROM `staff_members` s WHERE s.`id` = `time_off_requests`.`worker_id`
) WHERE `location_id` IS NULL;
