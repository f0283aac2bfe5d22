/**
 * The component tests (vitest's `dom` project) run many files at once on a machine the other test steps
 * share: a screen that follows a fetch and a timer can take longer than Testing Library's default of one
 * second to appear (findBy…, waitFor), and such a test failed now and then in CI for no fault of the code.
 * They wait up to five seconds instead; a test that passes waits no longer than it did.
 *
 * Components rendered without a provider (most component tests) speak English, the source language.
 */

import { english } from 'virtual:wm-messages';
import { createTranslator } from '@shared/i18n/translator';
import { configure } from '@testing-library/react';
import { setFallbackTranslator } from '@widgets/core/i18n';

configure({ asyncUtilTimeout: 5_000 });

setFallbackTranslator(createTranslator('en', english));
