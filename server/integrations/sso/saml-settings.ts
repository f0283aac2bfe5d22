/**
 * A tenant's SAML identity provider (decision 047), from its metadata: pasted, or read from its URL through
 * the outbound guard. What is wrong with it is a 400 naming the field it came from; nothing is saved then.
 */
import { localMessage } from '@shared/i18n/message';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { badRequest } from '../../http/errors';
import type { Actor } from '../core/principal';
import { fetchIdpMetadata, parseIdpMetadata, type SamlSettings } from './saml';
import { refusal, storeConnection } from './service';
import { ssoConnections } from './tables';

export async function saveSamlConnection(
  deps: { db: Db; allowLoopbackHttp: boolean },
  tenantId: string,
  input: {
    displayName: string;
    metadataXml?: string;
    metadataUrl?: string;
    enabled: boolean;
    requireSso: boolean;
  },
  by: Actor,
) {
  const { db } = deps;
  const [current] = await db.select().from(ssoConnections).where(eq(ssoConnections.tenantId, tenantId));
  let settings: SamlSettings;
  if (input.metadataXml) {
    try {
      settings = parseIdpMetadata(input.metadataXml, deps.allowLoopbackHttp);
    } catch (err) {
      throw badRequest(refusal(err, 'metadataXml'), 'metadataXml');
    }
  } else if (input.metadataUrl) {
    try {
      const xml = await fetchIdpMetadata(input.metadataUrl, deps.allowLoopbackHttp);
      settings = {
        ...parseIdpMetadata(xml, deps.allowLoopbackHttp, 'metadataUrl'),
        metadataUrl: input.metadataUrl,
      };
    } catch (err) {
      throw badRequest(refusal(err, 'metadataUrl'), 'metadataUrl', {
        errorCode: 'SAML_METADATA_FAILED',
      });
    }
  } else if (current?.protocol === 'saml') {
    settings = current.settings as unknown as SamlSettings;
  } else {
    throw badRequest(localMessage('errors.sso.metadataRequired'), 'metadataXml');
  }
  return storeConnection(db, tenantId, current, {
    protocol: 'saml',
    displayName: input.displayName,
    settings: settings as unknown as Record<string, string>,
    enabled: input.enabled,
    requireSso: input.requireSso,
    by,
    summary: settings.idpEntityId,
    details: {
      idpEntityId: settings.idpEntityId,
      idpSsoUrl: settings.idpSsoUrl,
      metadataUrl: settings.metadataUrl ?? null,
      certificates: settings.idpCertificates.length,
    },
  });
}
