import { execFile } from 'node:child_process';
import type { Slapd } from './slapd';

/*
 * Tests only: changes a test slapd's entries with OpenLDAP's own ldapmodify, as the directory's
 * administrator, the way an operator changes a password, moves a user or adds an organizational unit.
 */

/** Runs one LDIF change record set (changetype lines included) against the slapd; rejects with ldapmodify's words. */
export function ldapModify(s: Slapd, ldif: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = execFile('/usr/bin/ldapmodify', ['-x', '-H', `ldap://127.0.0.1:${s.port}`, '-D', s.adminDn, '-w', s.adminPassword], (err, _out, stderr) =>
      err ? reject(new Error(`ldapmodify: ${stderr || err.message}`)) : resolve(),
    );
    child.stdin!.end(`${ldif.trim()}\n`);
  });
}

/** A new password for an entry (userPassword replaced in the clear: slapd hashes nothing itself, and binds compare it). */
export const changePassword = (s: Slapd, dn: string, password: string) => ldapModify(s, `dn: ${dn}\nchangetype: modify\nreplace: userPassword\nuserPassword: ${password}`);

/** Moves an entry under another parent, and may rename it (newrdn). */
export const moveEntry = (s: Slapd, dn: string, newRdn: string, newParent: string) =>
  ldapModify(s, `dn: ${dn}\nchangetype: modrdn\nnewrdn: ${newRdn}\ndeleteoldrdn: 1\nnewsuperior: ${newParent}`);

/** An organizational unit under a parent entry; answers its DN. */
export async function addOu(s: Slapd, ou: string, parent: string): Promise<string> {
  const dn = `ou=${ou},${parent}`;
  await ldapModify(s, `dn: ${dn}\nchangetype: add\nobjectClass: organizationalUnit\nou: ${ou}`);
  return dn;
}
