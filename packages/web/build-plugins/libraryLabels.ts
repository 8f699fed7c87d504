import type { Plugin } from 'vite';
// Relative, not '@hublink/contract': the config is bundled with its relative imports only.
import { commonMessages as M } from '../../contract/src/messages/common';

/** Names the UI library's controls give themselves in English, whatever the locale: module → [English, ours]. */
const LABELS: { module: RegExp; replace: [string, string][] }[] = [
  {
    module: /@rc-component[\\/]input-number[\\/](es|lib)[\\/]StepHandler\.js$/,
    replace: [
      ["'Increase Value'", JSON.stringify(M.libraryStepUp)],
      ["'Decrease Value'", JSON.stringify(M.libraryStepDown)],
    ],
  },
  {
    module: /antd[\\/](es|lib)[\\/]table[\\/]hooks[\\/]useSelection\.js$/,
    replace: [
      ["'Custom selection'", JSON.stringify(M.libraryCustomSelection)],
      ["'Select all'", JSON.stringify(M.librarySelectAllRows)],
    ],
  },
  {
    module: /@rc-component[\\/]segmented[\\/](es|lib)[\\/]index\.js$/,
    replace: [['"segmented control"', JSON.stringify(M.librarySegmented)]],
  },
];

/**
 * A few controls of antd and its rc-components name themselves for screen readers in English with no
 * locale entry ('Increase Value', 'Select all', 'segmented control'): the console's Chinese names
 * replace them at build time. Fails the build when a text is no longer there, so a library update
 * cannot bring the English back silently.
 */
export function libraryLabels(): Plugin {
  return {
    name: 'hublink:library-labels',
    transform(code, id) {
      const entry = LABELS.find((l) => l.module.test(id));
      if (!entry) return null;
      let out = code;
      for (const [english, ours] of entry.replace) {
        if (!out.includes(english)) throw new Error(`libraryLabels: ${id} no longer contains ${english}`);
        out = out.split(english).join(ours);
      }
      return { code: out, map: null };
    },
  };
}
