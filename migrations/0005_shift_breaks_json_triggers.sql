-- shifts.breaks_json is a copy of the shift's shift_breaks rows in (start_at, id) order, kept here, in the database,
-- by every write to shift_breaks: the application never writes it, so no write path can leave it behind.
-- json_group_array over no rows is '[]', the column's default.
CREATE TRIGGER `shift_breaks_json_after_insert` AFTER INSERT ON `shift_breaks`
BEGIN
  UPDATE shifts SET breaks_json = (
    SELECT json_group_array(json_object(
      'id', b.id, 'typeId', b.type_id, 'name', b.name,
      'paid', json(CASE WHEN b.paid THEN 'true' ELSE 'false' END),
      'mandatory', json(CASE WHEN b.mandatory THEN 'true' ELSE 'false' END),
      'frequencyMinutes', b.frequency_minutes, 'durationInSettingsMinutes', b.duration_in_settings_minutes,
      'startAt', b.start_at, 'endAt', b.end_at,
      'automatic', json(CASE WHEN b.automatic THEN 'true' ELSE 'false' END)))
    FROM (SELECT * FROM shift_breaks WHERE shift_id = NEW.shift_id ORDER BY start_at, id) AS b
  ) WHERE id = NEW.shift_id;
END;
--> statement-breakpoint
CREATE TRIGGER `shift_breaks_json_after_update` AFTER UPDATE ON `shift_breaks`
BEGIN
  UPDATE shifts SET breaks_json = (
    SELECT json_group_array(json_object(
      'id', b.id, 'typeId', b.type_id, 'name', b.name,
      'paid', json(CASE WHEN b.paid THEN 'true' ELSE 'false' END),
      'mandatory', json(CASE WHEN b.mandatory THEN 'true' ELSE 'false' END),
      'frequencyMinutes', b.frequency_minutes, 'durationInSettingsMinutes', b.duration_in_settings_minutes,
      'startAt', b.start_at, 'endAt', b.end_at,
      'automatic', json(CASE WHEN b.automatic THEN 'true' ELSE 'false' END)))
    FROM (SELECT * FROM shift_breaks WHERE shift_id = NEW.shift_id ORDER BY start_at, id) AS b
  ) WHERE id = NEW.shift_id;
  UPDATE shifts SET breaks_json = (
    SELECT json_group_array(json_object(
      'id', b.id, 'typeId', b.type_id, 'name', b.name,
      'paid', json(CASE WHEN b.paid THEN 'true' ELSE 'false' END),
      'mandatory', json(CASE WHEN b.mandatory THEN 'true' ELSE 'false' END),
      'frequencyMinutes', b.frequency_minutes, 'durationInSettingsMinutes', b.duration_in_settings_minutes,
      'startAt', b.start_at, 'endAt', b.end_at,
      'automatic', json(CASE WHEN b.automatic THEN 'true' ELSE 'false' END)))
    FROM (SELECT * FROM shift_breaks WHERE shift_id = OLD.shift_id ORDER BY start_at, id) AS b
  ) WHERE id = OLD.shift_id AND OLD.shift_id <> NEW.shift_id;
END;
--> statement-breakpoint
CREATE TRIGGER `shift_breaks_json_after_delete` AFTER DELETE ON `shift_breaks`
BEGIN
  UPDATE shifts SET breaks_json = (
    SELECT json_group_array(json_object(
      'id', b.id, 'typeId', b.type_id, 'name', b.name,
      'paid', json(CASE WHEN b.paid THEN 'true' ELSE 'false' END),
      'mandatory', json(CASE WHEN b.mandatory THEN 'true' ELSE 'false' END),
      'frequencyMinutes', b.frequency_minutes, 'durationInSettingsMinutes', b.duration_in_settings_minutes,
      'startAt', b.start_at, 'endAt', b.end_at,
      'automatic', json(CASE WHEN b.automatic THEN 'true' ELSE 'false' END)))
    FROM (SELECT * FROM shift_breaks WHERE shift_id = OLD.shift_id ORDER BY start_at, id) AS b
  ) WHERE id = OLD.shift_id;
END;
--> statement-breakpoint
UPDATE shifts SET breaks_json = (
    SELECT json_group_array(json_object(
      'id', b.id, 'typeId', b.type_id, 'name', b.name,
      'paid', json(CASE WHEN b.paid THEN 'true' ELSE 'false' END),
      'mandatory', json(CASE WHEN b.mandatory THEN 'true' ELSE 'false' END),
      'frequencyMinutes', b.frequency_minutes, 'durationInSettingsMinutes', b.duration_in_settings_minutes,
      'startAt', b.start_at, 'endAt', b.end_at,
      'automatic', json(CASE WHEN b.automatic THEN 'true' ELSE 'false' END)))
    FROM (SELECT * FROM shift_breaks WHERE shift_id = shifts.id ORDER BY start_at, id) AS b
  ) WHERE EXISTS (SELECT 1 FROM shift_breaks WHERE shift_id = shifts.id);
