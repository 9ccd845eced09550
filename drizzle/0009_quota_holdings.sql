CREATE TABLE "quota_holdings" (
	"instance_id" uuid NOT NULL,
	"key_id" uuid NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"held" integer NOT NULL,
	CONSTRAINT "quota_holdings_instance_id_key_id_window_start_pk" PRIMARY KEY("instance_id","key_id","window_start")
);
