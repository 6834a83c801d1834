-- OAuth tokens are bound to their resources (RFC 8707): the grant remembers the resources its
-- authorization request named (none: every resource), so refreshes keep the binding. The code's
-- single resource moves to its grant.
ALTER TABLE "OAuthGrant" ADD COLUMN "resources" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[];
UPDATE "OAuthGrant" g SET "resources" = ARRAY[c."resource"] FROM "OAuthCode" c WHERE c."grantId" = g."id" AND c."resource" IS NOT NULL;
ALTER TABLE "OAuthCode" DROP COLUMN "resource";
