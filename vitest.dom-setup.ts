/**
 * The component tests (vitest's `dom` project) run many files at once on a machine the other test steps
 * share: a screen that follows a fetch and a timer can take longer than Testing Library's default of one
 * second to appear (findBy…, waitFor), and such a test failed now and then in CI for no fault of the code.
 * They wait up to five seconds instead; a test that passes waits no longer than it did.
 */
import { configure } from '@testing-library/react';

configure({ asyncUtilTimeout: 5_000 });
