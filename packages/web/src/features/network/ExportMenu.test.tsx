import { CODE, fmt, M } from '@hublink/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { saver } from '../../api/files';
import { mockApi, ok, refused, type ApiCall } from '../../test/mockApi';
import { renderWithProviders, shows } from '../../test/render';
import { ExportMenu } from './ExportMenu';

const YAML = 'kind: hublink/network/v1\nname: 华东生产网\ndns: [192.0.2.53]\ncenters:\n  - name: sh-center\n';
const JSON_TEXT = '{\n  "kind": "hublink/network/v1",\n  "name": "华东生产网"\n}\n';

const exported = (c: ApiCall) =>
  c.query.format === 'json'
    ? ok({ format: 'json' as const, file_name: 'network-N1.json', document: JSON_TEXT })
    : ok({ format: 'yaml' as const, file_name: 'network-N1.yaml', document: YAML });

/** The text of a saved Blob (jsdom's Blob has no text()). */
const textOf = (blob: Blob) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(reader.error);
    reader.readAsText(blob);
  });

async function pick(label: string) {
  await userEvent.click(screen.getByRole('button', { name: new RegExp(M.codeExport) }));
  await userEvent.click(await screen.findByRole('menuitem', { name: label }));
}

describe('ExportMenu', () => {
  let save: MockInstance<typeof saver.save>;
  beforeEach(() => {
    save = vi.spyOn(saver, 'save').mockImplementation(() => {});
  });
  afterEach(() => {
    save.mockRestore();
  });

  it('saves the YAML document under the name the server gives it, then says so', async () => {
    const m = mockApi({ '/network/export': exported });
    renderWithProviders(<ExportMenu networkNumber="N1" />);
    expect(m.callsTo('/network/export')).toHaveLength(0);
    await pick(M.codeExportYaml);
    await waitFor(() => expect(save).toHaveBeenCalledTimes(1));
    expect(m.callsTo('/network/export')[0]!.query).toEqual({ network_number: 'N1', format: 'yaml' });
    const [blob, name] = save.mock.calls[0]!;
    expect(name).toBe('network-N1.yaml');
    expect(blob.type).toMatch(/^application\/yaml/);
    expect(await textOf(blob)).toBe(YAML);
    await shows(fmt(M.codeExported, { file: 'network-N1.yaml' }));
  });

  it('saves the JSON document as network-….json', async () => {
    const m = mockApi({ '/network/export': exported });
    renderWithProviders(<ExportMenu networkNumber="N1" />);
    await pick(M.codeExportJson);
    await waitFor(() => expect(save).toHaveBeenCalledTimes(1));
    expect(m.callsTo('/network/export')[0]!.query).toEqual({ network_number: 'N1', format: 'json' });
    const [blob, name] = save.mock.calls[0]!;
    expect(name).toBe('network-N1.json');
    expect(blob.type).toMatch(/^application\/json/);
    expect(JSON.parse(await textOf(blob))).toEqual({ kind: 'hublink/network/v1', name: '华东生产网' });
    await shows(fmt(M.codeExported, { file: 'network-N1.json' }));
  });

  it('saves nothing on a refusal, which shows as the server says it', async () => {
    const m = mockApi({ '/network/export': refused('无权访问该网络', CODE.invalid) as never });
    renderWithProviders(<ExportMenu networkNumber="N1" />);
    await pick(M.codeExportYaml);
    await shows('无权访问该网络');
    expect(m.callsTo('/network/export')).toHaveLength(1);
    expect(save).not.toHaveBeenCalled();
    expect(screen.queryByText(new RegExp(`^${M.codeExported.split('{')[0]}`))).not.toBeInTheDocument();
    // The button is ready again for another try.
    await waitFor(() => expect(screen.getByRole('button', { name: new RegExp(M.codeExport) })).not.toHaveClass('ant-btn-loading'));
  });
});
