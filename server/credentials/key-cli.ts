/**
 * `npm run credentials:key`: prints a new Ed25519 signing key for CREDENTIAL_SIGNING_KEY (production) and
 * its public key (to keep in CREDENTIAL_PREVIOUS_KEYS after the next rotation).
 * `npm run credentials:rotate-key`: outside production, replaces the signing key in
 * DATA_DIR/secrets/credential-keys.json and keeps the old public key in the DID document. Restart the
 * server(s) afterwards.
 */
import { loadConfig } from '../config';
import { newKey, rotateKeyFile } from './keys';

async function main(command: string | undefined) {
  if (command === 'rotate') {
    const config = loadConfig();
    if (config.credentials.signingKey) {
      console.error(
        'CREDENTIAL_SIGNING_KEY is set: rotate by setting a new key (npm run credentials:key) and adding the old public key to CREDENTIAL_PREVIOUS_KEYS.',
      );
      return 2;
    }
    const { retired, current } = await rotateKeyFile(config.credentials.keyFile);
    console.log(`Signing key rotated in ${config.credentials.keyFile}.`);
    console.log(`  new:     ${current}`);
    console.log(`  retired: ${retired} (stays in the DID document; credentials it signed still verify)`);
    console.log('Restart the server to sign with the new key.');
    return 0;
  }
  const key = await newKey();
  console.log('A new credential signing key. Keep the secret like JWT_SECRET (never in the repository):');
  console.log(`CREDENTIAL_SIGNING_KEY=${key.secretKeyMultibase}`);
  console.log(
    `# its public key (add it to CREDENTIAL_PREVIOUS_KEYS when you rotate it away): ${key.publicKeyMultibase}`,
  );
  return 0;
}

main(process.argv[2]).then(
  (code) => process.exit(code),
  (err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
