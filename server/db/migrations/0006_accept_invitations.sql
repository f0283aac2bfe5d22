-- An invitee who signs up with the inviting tenant's id (users.invited_by_tenant_id) becomes that tenant's
-- seat in the same transaction, when the tenant's invitation for that e-mail address is still pending.
CREATE OR REPLACE FUNCTION waymark_accept_invitation() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.invited_by_tenant_id IS NOT NULL AND NEW.role = 'USER' THEN
    UPDATE tenant_invitations
      SET status = 'ACCEPTED', learner_id = NEW.id, accepted_at = now()
      WHERE tenant_id = NEW.invited_by_tenant_id AND email = lower(NEW.email)
        AND status = 'PENDING' AND expires_at > now();
    IF FOUND THEN
      INSERT INTO tenant_users (tenant_id, learner_id) VALUES (NEW.invited_by_tenant_id, NEW.id)
        ON CONFLICT DO NOTHING;
    END IF;
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER users_accept_invitation AFTER INSERT ON users
  FOR EACH ROW EXECUTE FUNCTION waymark_accept_invitation();
