import { createTheme, Modal, type CSSVariablesResolver } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'indigo',
  // Darker shades than Mantine's defaults keep white text on filled buttons above 4.5:1.
  primaryShade: 7,
  defaultRadius: 'md',
  // People who ask their system for less motion get dialogs without animation.
  respectReducedMotion: true,
  fontFamilyMonospace: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
  headings: { fontWeight: '650' },
  components: {
    // Every dialog's close button needs a name for screen readers.
    Modal: Modal.extend({
      defaultProps: { closeButtonProps: { 'aria-label': 'Close dialog' } },
      styles: { title: { fontWeight: 650, fontSize: 'var(--mantine-font-size-lg)' } },
    }),
  },
});

/** Mantine's default dimmed and placeholder greys and its error red fall below WCAG AA contrast on white. */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-placeholder': 'var(--mantine-color-gray-7)',
    '--mantine-color-error': 'var(--mantine-color-red-8)',
    // Text of light alerts and badges: darker than Mantine's, for 4.5:1 on their tinted backgrounds.
    '--mantine-color-red-light-color': 'var(--mantine-color-red-9)',
    '--mantine-color-yellow-light-color': '#7c4a03',
    '--mantine-color-orange-light-color': '#8a3c0c',
    '--mantine-color-teal-light-color': '#08694c',
    '--mantine-color-indigo-light-color': 'var(--mantine-color-indigo-9)',
    // A light button under the pointer: Mantine's hover tint leaves that text at 4.1:1.
    '--mantine-color-indigo-light-hover': 'var(--mantine-color-indigo-1)',
  },
  dark: {},
});
