// DOM matchers (toBeVisible, toHaveTextContent…) so a test asserts what the user sees, not only
// that a query found a node.
import '@testing-library/jest-dom/vitest';
