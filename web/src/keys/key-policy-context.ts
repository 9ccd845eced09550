import { createContext, useContext } from 'react';
import type { KeyPolicy } from '@contracts';

/**
 * The tenant's key policy, for the rows and dialogs of the keys panel (undefined while it loads),
 * without threading it through every list component.
 */
export const KeyPolicyContext = createContext<KeyPolicy | undefined>(undefined);
export const useKeyPolicyContext = () => useContext(KeyPolicyContext);
