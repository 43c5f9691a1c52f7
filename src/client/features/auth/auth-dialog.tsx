import { zodResolver } from '@hookform/resolvers/zod';
import { lazy, Suspense, useState } from 'react';
import { useForm, type FieldErrors, type UseFormRegisterReturn } from 'react-hook-form';
import {
  loginBodySchema,
  registerFormSchema,
  type LoginBody,
  type RegisterForm,
} from '#shared/api/auth.ts';
import { errorMessage } from '#client/lib/api-client.ts';
import {
  closeAuthDialog,
  setAuthDialogMode,
  useAuthDialog,
} from '#client/lib/auth-dialog-store.ts';
import { useLogin, useRegister } from './auth-mutations.ts';
import { toast } from '#client/lib/toast-store.ts';
import { Button } from '#client/ui/button.tsx';
import { Dialog } from '#client/ui/dialog.tsx';
import { Field } from '#client/ui/field.tsx';
import { Input } from '#client/ui/input.tsx';
import { PasswordInput } from './password-input.tsx';
import { withQueryClient } from '#client/lib/query-client.tsx';

// The Wallet Standard code loads when a visitor chooses to sign in with a wallet.
const WalletSignIn = lazy(() => import('./wallet-sign-in.tsx'));

const emptyLogin: LoginBody = { username: '', password: '' };
const emptyRegister: RegisterForm = { username: '', password: '', confirmPassword: '' };

/** The two fields both forms start with. */
function UsernameAndPassword({
  form,
  fields: [username, password],
  errors,
  passwordToggle,
}: {
  form: 'login' | 'register';
  fields: readonly [UseFormRegisterReturn<'username'>, UseFormRegisterReturn<'password'>];
  errors: FieldErrors<LoginBody>;
  passwordToggle: { visible: boolean; onToggle: () => void };
}) {
  return (
    <>
      <Field id={`${form}-username`} label="Username" error={errors.username?.message}>
        {(control) => <Input {...control} autoComplete="username" {...username} />}
      </Field>
      <Field id={`${form}-password`} label="Password" error={errors.password?.message}>
        {(control) => (
          <PasswordInput
            {...control}
            {...passwordToggle}
            autoComplete={form === 'login' ? 'current-password' : 'new-password'}
            {...password}
          />
        )}
      </Field>
    </>
  );
}

/** What each form says: the dialog's heading, its submit button and the way to the other form. */
const formCopy = {
  login: {
    title: 'Welcome Back',
    description: 'Sign in to your account to access exclusive features',
    submit: ['Sign In', 'Signing in...'],
    question: "Don't have an account?",
    other: 'Sign up',
  },
  register: {
    title: 'Join the Grind',
    description: 'Create your account to join the community',
    submit: ['Create Account', 'Creating Account...'],
    question: 'Already have an account?',
    other: 'Sign in',
  },
} as const;

/** The submit button, then the way to the other form. */
function FormEnd({
  form,
  pending,
  onSwitch,
}: {
  form: 'login' | 'register';
  pending: boolean;
  onSwitch: () => void;
}) {
  const {
    submit: [idle, busy],
    question,
    other,
  } = formCopy[form];
  return (
    <>
      <Button type="submit" size="lg" disabled={pending}>
        {pending ? busy : idle}
      </Button>
      <p className="text-center text-sm text-slate-400">
        {question}{' '}
        <button
          type="button"
          onClick={onSwitch}
          className="font-semibold text-grind-300 hover:underline"
        >
          {other}
        </button>
      </p>
    </>
  );
}

function AuthDialog() {
  const { open, mode } = useAuthDialog();
  const [visible, setVisible] = useState({ login: false, register: false, confirm: false });
  const [withWallet, setWithWallet] = useState(false);
  const loginForm = useForm<LoginBody>({
    resolver: zodResolver(loginBodySchema),
    defaultValues: emptyLogin,
  });
  const registerForm = useForm<RegisterForm>({
    resolver: zodResolver(registerFormSchema),
    defaultValues: emptyRegister,
  });
  const login = useLogin();
  const register = useRegister();

  const resetAll = () => {
    loginForm.reset(emptyLogin);
    registerForm.reset(emptyRegister);
    setVisible({ login: false, register: false, confirm: false });
    setWithWallet(false);
  };

  const onOpenChange = (next: boolean) => {
    if (!next) {
      closeAuthDialog();
      resetAll();
    }
  };

  const switchMode = () => {
    resetAll();
    setAuthDialogMode(mode === 'login' ? 'register' : 'login');
  };

  const submitLogin = loginForm.handleSubmit((body) =>
    login.mutate(body, {
      onSuccess: ({ user }) => {
        toast({
          title: 'Welcome back!',
          description: `Hello ${user.username}, you're now logged in.`,
        });
        onOpenChange(false);
      },
      onError: (error) =>
        toast({
          title: 'Login failed',
          description: errorMessage(error) ?? 'Please check your credentials and try again.',
          variant: 'destructive',
        }),
    }),
  );

  const submitRegister = registerForm.handleSubmit(({ username, password }) =>
    register.mutate(
      { username, password },
      {
        onSuccess: ({ user }) => {
          toast({
            title: 'Welcome to the Grind!',
            description: `Account created successfully. Welcome ${user.username}!`,
          });
          onOpenChange(false);
        },
        onError: (error) => {
          console.error('Registration failed', error);
          toast({
            title: 'Registration failed',
            description: errorMessage(error) ?? 'Please try again with different credentials.',
            variant: 'destructive',
          });
        },
      },
    ),
  );

  const passwordToggle = (field: keyof typeof visible) => ({
    visible: visible[field],
    onToggle: () => setVisible((v) => ({ ...v, [field]: !v[field] })),
  });

  // Both forms are one form: username, password, the register form's confirmation, the end.
  const current =
    mode === 'login'
      ? {
          onSubmit: submitLogin,
          fields: [loginForm.register('username'), loginForm.register('password')] as const,
          errors: loginForm.formState.errors,
          pending: login.isPending,
        }
      : {
          onSubmit: submitRegister,
          fields: [registerForm.register('username'), registerForm.register('password')] as const,
          errors: registerForm.formState.errors,
          pending: register.isPending,
        };
  const confirmError = registerForm.formState.errors.confirmPassword?.message;

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={formCopy[mode].title}
      description={formCopy[mode].description}
    >
      <form onSubmit={current.onSubmit} noValidate className="grid gap-4">
        <UsernameAndPassword
          form={mode}
          fields={current.fields}
          errors={current.errors}
          passwordToggle={passwordToggle(mode)}
        />
        {mode === 'register' && (
          <Field id="register-confirm" label="Confirm Password" error={confirmError}>
            {(control) => (
              <PasswordInput
                {...control}
                {...passwordToggle('confirm')}
                autoComplete="new-password"
                {...registerForm.register('confirmPassword')}
              />
            )}
          </Field>
        )}
        <FormEnd form={mode} pending={current.pending} onSwitch={switchMode} />
      </form>
      <div className="mt-4 grid gap-3 border-t border-slate-800 pt-4">
        {withWallet ? (
          <Suspense fallback={<p className="text-sm text-slate-400">Looking for wallets…</p>}>
            <WalletSignIn onDone={() => onOpenChange(false)} />
          </Suspense>
        ) : (
          <Button variant="secondary" size="lg" onClick={() => setWithWallet(true)}>
            Sign in with wallet
          </Button>
        )}
      </div>
    </Dialog>
  );
}

export default withQueryClient(AuthDialog);
