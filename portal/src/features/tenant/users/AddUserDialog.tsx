/**
 * Add User (mentor §2.3, §4, §5, §8): an e-mail address ('Required', 'Invalid email address'), checked with
 * the server first ('Email Already Assigned For You' for code 11000; 'Email Not Found' becomes 'Email does
 * not exist', or — when inviting is allowed — 'User does not exist, please invite them' with Invite in
 * place of Add). Then the subscription info decides: add at once, tell an offered tenant that extra users
 * must be paid for, or ask for a payment (the host opens the Payment Required modal).
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { ApiError, type Client } from '@shared/client/client';
import { tenantSubscriptionInfo } from '@shared/contract/billing';
import { tenantInviteUser } from '@shared/contract/invitations';
import { tenantAddUserV2, tenantBeforeCheckAddUser } from '@shared/contract/tenant';
import { fieldTextsOf } from '@shared/i18n/form-words';
import type { Translator } from '@shared/i18n/translator';
import { decideAddUser, FREE_SEATS } from '@shared/rules/seats';
import { AddUserInput, type SubscriptionInfo, TENANT_ERROR_CODES } from '@shared/schemas/tenant';
import { client as portalClient } from '@widgets/core/api';
import { useFormWords } from '@widgets/core/form-words';
import { useI18n } from '@widgets/core/i18n';
import { messageOf } from '@widgets/core/useCall';
import { Dialog } from '@widgets/ui/Dialog';
import { Field } from '@widgets/ui/Field';
import { toast } from '@widgets/ui/Toast';
import { useEffect, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { FormDialogActions } from '../../../components/FormDialogActions';
import { type SendInviteLink, sendFirebaseInviteLink } from './invite';

type Input = z.input<typeof AddUserInput>;
type Output = z.output<typeof AddUserInput>;
type Info = z.infer<typeof SubscriptionInfo>;

/** What the Payment Required modal needs: the seats to hold in total, the learner, and the figures. */
export interface PaymentRequest {
  email: string;
  learnerId: string;
  quantity: number;
  info: Info;
}

export interface AddUserDialogProps {
  open: boolean;
  onClose: () => void;
  /** A learner was added (reload the list and the statistics). */
  onAdded: () => void;
  /** A payment is needed before the learner can be added. */
  onPaymentRequired: (request: PaymentRequest) => void;
  client?: Client;
  sendInviteLink?: SendInviteLink;
}

/** The field error a refused e-mail gets (mentor §5, §8), and whether Invite is offered instead of Add. */
export function addUserError(
  err: unknown,
  { t }: Pick<Translator, 't'>,
): { message: string; invite: boolean } {
  if (err instanceof ApiError) {
    if (err.code === 11000) return { message: t('users.alreadyAssigned'), invite: false };
    if (err.errorCode === TENANT_ERROR_CODES.emailNotFound) {
      const allowed = (err.body as { isAllowToInvite?: boolean }).isAllowToInvite === true;
      return { message: allowed ? t('users.inviteThem') : t('users.emailNotExist'), invite: allowed };
    }
    // bad input: the address's refusal said from the catalogue by its code
    const field = err.status === 400 ? fieldTextsOf({ t }, err.body).email : undefined;
    return { message: field ?? err.message, invite: false };
  }
  return { message: messageOf(err, t('users.addFailed')), invite: false };
}

/** Seats the tenant will hold once one more is paid for: every seat held or kept for an invitation, plus one. */
export const seatsAfterOneMore = (info: Info) =>
  Math.max(info.totalQuantity, info.seatCount + info.pendingInvitations) + 1;

/** Before adding: the server's check of the address (its learner) and the subscription's figures. */
async function checkBeforeAdding(client: Client, email: string): Promise<{ learnerId: string; info: Info }> {
  const learnerId = (await client.call(tenantBeforeCheckAddUser, { body: { email } })).data.learnerId;
  const info = (await client.call(tenantSubscriptionInfo)).data;
  return { learnerId, info };
}

/** Sends the invitation e-mail with its link and says so; whether it went. */
async function mailInvitation(
  sendInviteLink: SendInviteLink,
  email: string,
  continueUrl: string,
  { t }: Pick<Translator, 't'>,
): Promise<boolean> {
  try {
    await sendInviteLink(email, continueUrl);
    toast(t('users.inviteSent', { email }), {
      kind: 'success',
      title: t('users.invitationSent'),
      ms: 6000,
    });
    return true;
  } catch (err) {
    console.error('Invitation e-mail not sent', err);
    toast(t('users.inviteFailed'), { kind: 'error', ms: 6000 });
    return false;
  }
}

export function AddUserDialog({
  open,
  onClose,
  onAdded,
  onPaymentRequired,
  client = portalClient,
  sendInviteLink = sendFirebaseInviteLink,
}: AddUserDialogProps) {
  const translator = useI18n();
  const formWords = useFormWords();
  const { t } = translator;
  const formId = useId();
  const [invite, setInvite] = useState(false);
  const form = useForm<Input, unknown, Output>({
    resolver: zodResolver(AddUserInput, formWords),
    mode: 'onSubmit',
    defaultValues: { email: '' },
  });
  const { register, handleSubmit, formState, setError, reset } = form;

  useEffect(() => {
    if (open) {
      reset({ email: '' });
      setInvite(false);
    }
  }, [open, reset]);

  const refuse = (err: unknown) => {
    const { message, invite: allowed } = addUserError(err, translator);
    setInvite(allowed);
    setError('email', { type: 'server', message });
  };

  // an offered tenant is told that extra users must be paid for
  const offerLimit = () => {
    toast(t('users.offerLimit', { count: FREE_SEATS }), { kind: 'info', ms: 6000 });
    onClose();
  };

  const add = async (email: string) => {
    let learnerId: string;
    let info: Info;
    try {
      ({ learnerId, info } = await checkBeforeAdding(client, email));
    } catch (err) {
      refuse(err);
      return;
    }
    const decision = decideAddUser(info);
    if (decision === 'OFFER_LIMIT') return offerLimit();
    if (decision === 'PAYMENT_REQUIRED') {
      onPaymentRequired({ email, learnerId, quantity: seatsAfterOneMore(info), info });
      return;
    }
    try {
      const res = (await client.call(tenantAddUserV2, { body: { email } })).data;
      switch (res.outcome) {
        case 'ADDED':
          toast(t('users.added', { name: res.user?.learnerId.name || email }), { kind: 'success', ms: 4000 });
          onAdded();
          onClose();
          return;
        case 'OFFER_LIMIT':
          return offerLimit();
        default:
          // 'not yet subscribed' (or every paid seat taken meanwhile): pay for list length + 1 seats
          onPaymentRequired({ email, learnerId: res.learnerId, quantity: res.quantity, info });
      }
    } catch (err) {
      refuse(err);
    }
  };

  const sendInvitation = async (email: string) => {
    let continueUrl: string;
    try {
      continueUrl = (await client.call(tenantInviteUser, { body: { email } })).data.continueUrl;
    } catch (err) {
      // an account was made meanwhile (code 11000 here): the server says so, and Add is offered again
      setInvite(false);
      setError('email', {
        type: 'server',
        message: messageOf(err, t('users.inviteFailed')),
      });
      return;
    }
    if (await mailInvitation(sendInviteLink, email, continueUrl, translator)) onClose();
  };

  const submit = handleSubmit(({ email }) => (invite ? sendInvitation(email) : add(email)));
  const busy = formState.isSubmitting;
  const emailField = register('email', {
    // a changed address is checked again: Add comes back
    onChange: () => invite && setInvite(false),
  });

  return (
    <Dialog
      open={open}
      title={t('users.add')}
      onClose={onClose}
      actions={
        <FormDialogActions
          formId={formId}
          busy={busy}
          onCancel={onClose}
          submit={invite ? t('users.invite') : t('users.addButton')}
        />
      }
    >
      <form id={formId} onSubmit={submit} noValidate>
        <p className="muted">{t('users.addIntro')}</p>
        <Field label={t('column.email')} error={formState.errors.email?.message} required>
          <input type="email" autoComplete="off" inputMode="email" maxLength={254} {...emailField} />
        </Field>
      </form>
    </Dialog>
  );
}
