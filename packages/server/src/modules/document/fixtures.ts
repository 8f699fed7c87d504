import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A 1×1 PNG (the smallest real image a document may show). */
export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/** A handbook folder of the given files (path → text or bytes) in a new temporary folder; answers its path. */
export function writeHandbook(files: Record<string, string | Buffer>, dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hublink-handbook-'))): string {
  for (const [rel, body] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), body);
  }
  return dir;
}

/** A small handbook: two sections, three documents, a link between them and an image. */
export const SMALL_HANDBOOK: Record<string, string | Buffer> = {
  'index.md': ['# 帮助文档', '', '- 快速入门', '  - [注册账号](start/register.md)', '  - [登录控制台](start/sign-in.md)', '- 成员管理', '  - [批量导入](members/import.md)', ''].join('\n'),
  'start/register.md': ['# 注册账号', '', '打开注册页面，填写**用户名**。', '', '注册后请[登录控制台](sign-in.md)。', '', '![注册页面](../images/register.png)', ''].join('\n'),
  'start/sign-in.md': ['# 登录控制台', '', '| 字段 | 说明 |', '| --- | --- |', '| 账号 | 用户名、手机或邮箱 |', ''].join('\n'),
  'members/import.md': ['批量导入软件成员，见[注册](../start/register.md#步骤)。', '', '```sh', 'echo ok', '```', ''].join('\n'),
  'images/register.png': PNG,
};
