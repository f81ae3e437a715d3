-- auditMetadata.username of a job-creating request (the SDKs' AuditMetadata, sent at the top level
-- or in scrapeOptions), shown as audit_metadata in GET /v2/team/activity. Nullable: older rows and
-- requests without it have none.
ALTER TABLE "activity_log" ADD COLUMN "audit_username" TEXT;
