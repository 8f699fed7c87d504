import { CODE, deleteRouter, fmt, type RouterItem, routerMessages } from '@hublink/contract';
import { ConfirmByTyping } from '../../components/ConfirmByTyping';
import { useRouterMutation } from './api';

/** Deletes a member once its name is typed exactly (spec 3 §5); it leaves every network with it. */
export function DeleteMemberDialog({ member, onClose }: { member: RouterItem | undefined; onClose: () => void }) {
  const remove = useRouterMutation(deleteRouter);
  const name = member?.router_name ?? '';
  return (
    <ConfirmByTyping
      open={member !== undefined}
      title={routerMessages.memberDeleteTitle}
      phrase={name}
      description={fmt(routerMessages.memberDeleteHint, { name })}
      okText={routerMessages.memberActionDelete}
      onClose={onClose}
      onConfirm={async () => (await remove.mutateAsync({ router_name: name })).code === CODE.ok}
    />
  );
}
