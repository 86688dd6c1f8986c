"""Whole models with their own ``train_step`` from public Keras code, for ``mp.doctor``'s gallery.

Adapted as ``tests/public_gallery.py`` says: the code of ``call``, ``train_step`` and of the
helpers they call is kept as it is at the commit each ``*_SOURCE`` names, with tiny sizes and no
data loading; every change Keras 3 forced is said where it is made. ``tests/public_gallery.py``
lists them in ``MODELS``; ``tests/test_public_gallery.py`` establishes what is true of each by
running it.

Source: keras-io (https://github.com/keras-team/keras-io), Apache License 2.0, Copyright the
Keras authors.
"""

from __future__ import annotations

import math
import random
import typing

import keras
import numpy as np
import tensorflow as tf
from keras import layers, ops

KERAS_IO = "keras-team/keras-io"

ASR_SOURCE = (
    KERAS_IO,
    "examples/audio/transformer_asr.py",
    "0c4052b8db5464104c21ce6f43b47bf9a3af47b1",
)
CYCLEGAN_SOURCE = (
    KERAS_IO,
    "examples/generative/cyclegan.py",
    "7eda41df207f8bb10a88052869b1c961eb1de067",
)
WGAN_SOURCE = (
    KERAS_IO,
    "examples/generative/wgan_gp.py",
    "81aa0edb72a1735c5c577f123bb3a4a475a181c9",
)
DCGAN_SOURCE = (
    KERAS_IO,
    "examples/generative/dcgan_overriding_train_step.py",
    "cca4efba8e0b8514ae3817931696294039b3bfc9",
)
DDIM_SOURCE = (KERAS_IO, "examples/generative/ddim.py", "d45b87492bb26714cb639924321e1a2b4ef3494a")
PIXELCNN_SOURCE = (
    KERAS_IO,
    "examples/generative/pixelcnn.py",
    "dad05faaae0b553f81d35175201035971725356d",
)
CAIT_SOURCE = (KERAS_IO, "examples/vision/cait.py", "b3dfa0805486b02095f3baa24c8368ef15441317")


def _scope(policy: str):
    from mpteach.doctor.diagnose import keras_policy

    return keras_policy(policy)


def _normal(*shape: int, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape).astype("float32")


# --- 1. keras-io: audio/transformer_asr.py --------------------------------------------------------


class TokenEmbedding(layers.Layer):
    def __init__(self, num_vocab=1000, maxlen=100, num_hid=64):
        super().__init__()
        self.emb = keras.layers.Embedding(num_vocab, num_hid)
        self.pos_emb = layers.Embedding(input_dim=maxlen, output_dim=num_hid)

    def call(self, x):
        maxlen = tf.shape(x)[-1]
        x = self.emb(x)
        positions = tf.range(start=0, limit=maxlen, delta=1)
        positions = self.pos_emb(positions)
        return x + positions


class SpeechFeatureEmbedding(layers.Layer):
    def __init__(self, num_hid=64, maxlen=100):
        super().__init__()
        self.conv1 = keras.layers.Conv1D(num_hid, 11, strides=2, padding="same", activation="relu")
        self.conv2 = keras.layers.Conv1D(num_hid, 11, strides=2, padding="same", activation="relu")
        self.conv3 = keras.layers.Conv1D(num_hid, 11, strides=2, padding="same", activation="relu")

    def call(self, x):
        x = self.conv1(x)
        x = self.conv2(x)
        return self.conv3(x)


class TransformerEncoder(layers.Layer):
    def __init__(self, embed_dim, num_heads, feed_forward_dim, rate=0.1):
        super().__init__()
        self.att = layers.MultiHeadAttention(num_heads=num_heads, key_dim=embed_dim)
        self.ffn = keras.Sequential(
            [
                layers.Dense(feed_forward_dim, activation="relu"),
                layers.Dense(embed_dim),
            ]
        )
        self.layernorm1 = layers.LayerNormalization(epsilon=1e-6)
        self.layernorm2 = layers.LayerNormalization(epsilon=1e-6)
        self.dropout1 = layers.Dropout(rate)
        self.dropout2 = layers.Dropout(rate)

    def call(self, inputs, training=False):
        attn_output = self.att(inputs, inputs)
        attn_output = self.dropout1(attn_output, training=training)
        out1 = self.layernorm1(inputs + attn_output)
        ffn_output = self.ffn(out1)
        ffn_output = self.dropout2(ffn_output, training=training)
        return self.layernorm2(out1 + ffn_output)


class TransformerDecoder(layers.Layer):
    def __init__(self, embed_dim, num_heads, feed_forward_dim, dropout_rate=0.1):
        super().__init__()
        self.layernorm1 = layers.LayerNormalization(epsilon=1e-6)
        self.layernorm2 = layers.LayerNormalization(epsilon=1e-6)
        self.layernorm3 = layers.LayerNormalization(epsilon=1e-6)
        self.self_att = layers.MultiHeadAttention(num_heads=num_heads, key_dim=embed_dim)
        self.enc_att = layers.MultiHeadAttention(num_heads=num_heads, key_dim=embed_dim)
        self.self_dropout = layers.Dropout(0.5)
        self.enc_dropout = layers.Dropout(0.1)
        self.ffn_dropout = layers.Dropout(0.1)
        self.ffn = keras.Sequential(
            [
                layers.Dense(feed_forward_dim, activation="relu"),
                layers.Dense(embed_dim),
            ]
        )

    def causal_attention_mask(self, batch_size, n_dest, n_src, dtype):
        """Masks the upper half of the dot product matrix in self attention.

        This prevents flow of information from future tokens to current token.
        1's in the lower triangle, counting from the lower right corner.
        """
        i = tf.range(n_dest)[:, None]
        j = tf.range(n_src)
        m = i >= j - n_src + n_dest
        mask = tf.cast(m, dtype)
        mask = tf.reshape(mask, [1, n_dest, n_src])
        mult = tf.concat([tf.expand_dims(batch_size, -1), tf.constant([1, 1], dtype=tf.int32)], 0)
        return tf.tile(mask, mult)

    def call(self, enc_out, target):
        input_shape = tf.shape(target)
        batch_size = input_shape[0]
        seq_len = input_shape[1]
        causal_mask = self.causal_attention_mask(batch_size, seq_len, seq_len, tf.bool)
        target_att = self.self_att(target, target, attention_mask=causal_mask)
        target_norm = self.layernorm1(target + self.self_dropout(target_att))
        enc_out = self.enc_att(target_norm, enc_out)
        enc_out_norm = self.layernorm2(self.enc_dropout(enc_out) + target_norm)
        ffn_out = self.ffn(enc_out_norm)
        ffn_out_norm = self.layernorm3(enc_out_norm + self.ffn_dropout(ffn_out))
        return ffn_out_norm


class Transformer(keras.Model):
    def __init__(
        self,
        num_hid=64,
        num_head=2,
        num_feed_forward=128,
        source_maxlen=100,
        target_maxlen=100,
        num_layers_enc=4,
        num_layers_dec=1,
        num_classes=10,
    ):
        super().__init__()
        self.loss_metric = keras.metrics.Mean(name="loss")
        self.num_layers_enc = num_layers_enc
        self.num_layers_dec = num_layers_dec
        self.target_maxlen = target_maxlen
        self.num_classes = num_classes

        self.enc_input = SpeechFeatureEmbedding(num_hid=num_hid, maxlen=source_maxlen)
        self.dec_input = TokenEmbedding(
            num_vocab=num_classes, maxlen=target_maxlen, num_hid=num_hid
        )

        self.encoder = keras.Sequential(
            [self.enc_input]
            + [
                TransformerEncoder(num_hid, num_head, num_feed_forward)
                for _ in range(num_layers_enc)
            ]
        )

        for i in range(num_layers_dec):
            setattr(
                self,
                f"dec_layer_{i}",
                TransformerDecoder(num_hid, num_head, num_feed_forward),
            )

        self.classifier = layers.Dense(num_classes)

    def decode(self, enc_out, target):
        y = self.dec_input(target)
        for i in range(self.num_layers_dec):
            y = getattr(self, f"dec_layer_{i}")(enc_out, y)
        return y

    def call(self, inputs):
        source = inputs[0]
        target = inputs[1]
        x = self.encoder(source)
        y = self.decode(x, target)
        return self.classifier(y)

    @property
    def metrics(self):
        return [self.loss_metric]

    def train_step(self, batch):
        """Processes one batch inside model.fit()."""
        source = batch["source"]
        target = batch["target"]
        dec_input = target[:, :-1]
        dec_target = target[:, 1:]
        with tf.GradientTape() as tape:
            preds = self([source, dec_input])
            one_hot = tf.one_hot(dec_target, depth=self.num_classes)
            mask = tf.math.logical_not(tf.math.equal(dec_target, 0))
            loss = self.compute_loss(None, one_hot, preds, sample_weight=mask)
        trainable_vars = self.trainable_variables
        gradients = tape.gradient(loss, trainable_vars)
        self.optimizer.apply_gradients(zip(gradients, trainable_vars))
        self.loss_metric.update_state(loss)
        return {"loss": self.loss_metric.result()}


class CustomSchedule(keras.optimizers.schedules.LearningRateSchedule):
    def __init__(
        self,
        init_lr=0.00001,
        lr_after_warmup=0.001,
        final_lr=0.00001,
        warmup_epochs=15,
        decay_epochs=85,
        steps_per_epoch=203,
    ):
        super().__init__()
        self.init_lr = init_lr
        self.lr_after_warmup = lr_after_warmup
        self.final_lr = final_lr
        self.warmup_epochs = warmup_epochs
        self.decay_epochs = decay_epochs
        self.steps_per_epoch = steps_per_epoch

    def calculate_lr(self, epoch):
        """linear warm up - linear decay"""
        warmup_lr = (
            self.init_lr
            + ((self.lr_after_warmup - self.init_lr) / (self.warmup_epochs - 1)) * epoch
        )
        decay_lr = tf.math.maximum(
            self.final_lr,
            self.lr_after_warmup
            - (epoch - self.warmup_epochs)
            * (self.lr_after_warmup - self.final_lr)
            / self.decay_epochs,
        )
        return tf.math.minimum(warmup_lr, decay_lr)

    def __call__(self, step):
        epoch = step // self.steps_per_epoch
        epoch = tf.cast(epoch, "float32")
        return self.calculate_lr(epoch)


ASR_FRAMES, ASR_FEATURES, ASR_TARGET_LEN, ASR_CLASSES = 16, 8, 8, 10


def transformer_asr_model(policy: str) -> keras.Model:
    """num_hid 200 -> 16, num_head 2 -> 1, num_feed_forward 400 -> 16, 4 encoder layers -> 1,
    target_maxlen 200 -> 8, num_classes 34 -> 10; spectrogram frames 2754 -> 16 and features
    129 -> 8 (the three strided Conv1D are kept: 16 -> 2 frames). steps_per_epoch=len(ds) -> 1.
    Loss and optimizer as published."""
    with _scope(policy):
        model = Transformer(
            num_hid=16,
            num_head=1,
            num_feed_forward=16,
            target_maxlen=ASR_TARGET_LEN,
            num_layers_enc=1,
            num_layers_dec=1,
            num_classes=ASR_CLASSES,
        )
        loss_fn = keras.losses.CategoricalCrossentropy(from_logits=True, label_smoothing=0.1)
        learning_rate = CustomSchedule(
            init_lr=0.00001,
            lr_after_warmup=0.001,
            final_lr=0.00001,
            warmup_epochs=15,
            decay_epochs=85,
            steps_per_epoch=1,
        )
        optimizer = keras.optimizers.Adam(learning_rate)
        model.compile(optimizer=optimizer, loss=loss_fn)
        # Build the variables (fit would on its first batch) so that get/set_weights line up.
        source, target = (tf.convert_to_tensor(v) for v in transformer_asr_batch().values())
        model([source, target[:, :-1]])
    return model


def transformer_asr_batch() -> dict:
    """{"source": normalised spectrogram frames, "target": token ids}: "<" is 2, ">" is 3, the
    rest padded with 0 as VectorizeChar does."""
    rng = np.random.default_rng(0)
    target = np.zeros((4, ASR_TARGET_LEN), "int32")
    for row, length in enumerate((7, 5, 6, 4)):
        target[row, 0], target[row, 1 : length - 1] = 2, rng.integers(4, ASR_CLASSES, length - 2)
        target[row, length - 1] = 3
    return {"source": _normal(4, ASR_FRAMES, ASR_FEATURES), "target": target}


# --- 2. keras-io: generative/cyclegan.py ----------------------------------------------------------
# `from tensorflow import keras` -> Keras 3; tfa.layers.InstanceNormalization (TF Addons, gone) ->
# keras.layers.GroupNormalization(groups=-1), which is instance normalisation (it is how TF Addons
# defined InstanceNormalization). The builders are the published ones, called with tiny sizes.

input_img_size = (16, 16, 3)  # (256, 256, 3) there
kernel_init = keras.initializers.RandomNormal(mean=0.0, stddev=0.02)
gamma_init = keras.initializers.RandomNormal(mean=0.0, stddev=0.02)


def InstanceNormalization(gamma_initializer):  # noqa: N802 (stands for tfa.layers.InstanceNormalization)
    return layers.GroupNormalization(groups=-1, gamma_initializer=gamma_initializer)


class ReflectionPadding2D(layers.Layer):
    """Implements Reflection Padding as a layer.

    Args:
        padding(tuple): Amount of padding for the
        spatial dimensions.

    Returns:
        A padded tensor with the same type as the input tensor.
    """

    def __init__(self, padding=(1, 1), **kwargs):
        self.padding = tuple(padding)
        super(ReflectionPadding2D, self).__init__(**kwargs)

    def call(self, input_tensor, mask=None):
        padding_width, padding_height = self.padding
        padding_tensor = [
            [0, 0],
            [padding_height, padding_height],
            [padding_width, padding_width],
            [0, 0],
        ]
        return tf.pad(input_tensor, padding_tensor, mode="REFLECT")


def residual_block(
    x,
    activation,
    kernel_initializer=kernel_init,
    kernel_size=(3, 3),
    strides=(1, 1),
    padding="valid",
    gamma_initializer=gamma_init,
    use_bias=False,
):
    dim = x.shape[-1]
    input_tensor = x

    x = ReflectionPadding2D()(input_tensor)
    x = layers.Conv2D(
        dim,
        kernel_size,
        strides=strides,
        kernel_initializer=kernel_initializer,
        padding=padding,
        use_bias=use_bias,
    )(x)
    x = InstanceNormalization(gamma_initializer=gamma_initializer)(x)
    x = activation(x)

    x = ReflectionPadding2D()(x)
    x = layers.Conv2D(
        dim,
        kernel_size,
        strides=strides,
        kernel_initializer=kernel_initializer,
        padding=padding,
        use_bias=use_bias,
    )(x)
    x = InstanceNormalization(gamma_initializer=gamma_initializer)(x)
    x = layers.add([input_tensor, x])
    return x


def downsample(
    x,
    filters,
    activation,
    kernel_initializer=kernel_init,
    kernel_size=(3, 3),
    strides=(2, 2),
    padding="same",
    gamma_initializer=gamma_init,
    use_bias=False,
):
    x = layers.Conv2D(
        filters,
        kernel_size,
        strides=strides,
        kernel_initializer=kernel_initializer,
        padding=padding,
        use_bias=use_bias,
    )(x)
    x = InstanceNormalization(gamma_initializer=gamma_initializer)(x)
    if activation:
        x = activation(x)
    return x


def upsample(
    x,
    filters,
    activation,
    kernel_size=(3, 3),
    strides=(2, 2),
    padding="same",
    kernel_initializer=kernel_init,
    gamma_initializer=gamma_init,
    use_bias=False,
):
    x = layers.Conv2DTranspose(
        filters,
        kernel_size,
        strides=strides,
        padding=padding,
        kernel_initializer=kernel_initializer,
        use_bias=use_bias,
    )(x)
    x = InstanceNormalization(gamma_initializer=gamma_initializer)(x)
    if activation:
        x = activation(x)
    return x


def get_resnet_generator(
    filters=64,
    num_downsampling_blocks=2,
    num_residual_blocks=9,
    num_upsample_blocks=2,
    gamma_initializer=gamma_init,
    name=None,
):
    img_input = layers.Input(shape=input_img_size, name=name + "_img_input")
    x = ReflectionPadding2D(padding=(3, 3))(img_input)
    x = layers.Conv2D(filters, (7, 7), kernel_initializer=kernel_init, use_bias=False)(x)
    x = InstanceNormalization(gamma_initializer=gamma_initializer)(x)
    x = layers.Activation("relu")(x)

    # Downsampling
    for _ in range(num_downsampling_blocks):
        filters *= 2
        x = downsample(x, filters=filters, activation=layers.Activation("relu"))

    # Residual blocks
    for _ in range(num_residual_blocks):
        x = residual_block(x, activation=layers.Activation("relu"))

    # Upsampling
    for _ in range(num_upsample_blocks):
        filters //= 2
        x = upsample(x, filters, activation=layers.Activation("relu"))

    # Final block
    x = ReflectionPadding2D(padding=(3, 3))(x)
    x = layers.Conv2D(3, (7, 7), padding="valid")(x)
    x = layers.Activation("tanh")(x)

    model = keras.models.Model(img_input, x, name=name)
    return model


def get_discriminator(filters=64, kernel_initializer=kernel_init, num_downsampling=3, name=None):
    img_input = layers.Input(shape=input_img_size, name=name + "_img_input")
    x = layers.Conv2D(
        filters,
        (4, 4),
        strides=(2, 2),
        padding="same",
        kernel_initializer=kernel_initializer,
    )(img_input)
    x = layers.LeakyReLU(0.2)(x)

    num_filters = filters
    for num_downsample_block in range(3):
        num_filters *= 2
        if num_downsample_block < 2:
            x = downsample(
                x,
                filters=num_filters,
                activation=layers.LeakyReLU(0.2),
                kernel_size=(4, 4),
                strides=(2, 2),
            )
        else:
            x = downsample(
                x,
                filters=num_filters,
                activation=layers.LeakyReLU(0.2),
                kernel_size=(4, 4),
                strides=(1, 1),
            )

    x = layers.Conv2D(
        1, (4, 4), strides=(1, 1), padding="same", kernel_initializer=kernel_initializer
    )(x)

    model = keras.models.Model(inputs=img_input, outputs=x, name=name)
    return model


class CycleGan(keras.Model):
    def __init__(
        self,
        generator_G,
        generator_F,
        discriminator_X,
        discriminator_Y,
        lambda_cycle=10.0,
        lambda_identity=0.5,
    ):
        super(CycleGan, self).__init__()
        self.gen_G = generator_G
        self.gen_F = generator_F
        self.disc_X = discriminator_X
        self.disc_Y = discriminator_Y
        self.lambda_cycle = lambda_cycle
        self.lambda_identity = lambda_identity

    def call(self, inputs):
        return (
            self.disc_X(inputs),
            self.disc_Y(inputs),
            self.gen_G(inputs),
            self.gen_F(inputs),
        )

    def compile(
        self,
        gen_G_optimizer,
        gen_F_optimizer,
        disc_X_optimizer,
        disc_Y_optimizer,
        gen_loss_fn,
        disc_loss_fn,
    ):
        super(CycleGan, self).compile()
        self.gen_G_optimizer = gen_G_optimizer
        self.gen_F_optimizer = gen_F_optimizer
        self.disc_X_optimizer = disc_X_optimizer
        self.disc_Y_optimizer = disc_Y_optimizer
        self.generator_loss_fn = gen_loss_fn
        self.discriminator_loss_fn = disc_loss_fn
        self.cycle_loss_fn = keras.losses.MeanAbsoluteError()
        self.identity_loss_fn = keras.losses.MeanAbsoluteError()

    def train_step(self, batch_data):
        # x is Horse and y is zebra
        real_x, real_y = batch_data

        # For CycleGAN, we need to calculate different
        # kinds of losses for the generators and discriminators.
        # We will perform the following steps here:
        #
        # 1. Pass real images through the generators and get the generated images
        # 2. Pass the generated images back to the generators to check if we
        #    we can predict the original image from the generated image.
        # 3. Do an identity mapping of the real images using the generators.
        # 4. Pass the generated images in 1) to the corresponding discriminators.
        # 5. Calculate the generators total loss (adverserial + cycle + identity)
        # 6. Calculate the discriminators loss
        # 7. Update the weights of the generators
        # 8. Update the weights of the discriminators
        # 9. Return the losses in a dictionary

        with tf.GradientTape(persistent=True) as tape:
            # Horse to fake zebra
            fake_y = self.gen_G(real_x, training=True)
            # Zebra to fake horse -> y2x
            fake_x = self.gen_F(real_y, training=True)

            # Cycle (Horse to fake zebra to fake horse): x -> y -> x
            cycled_x = self.gen_F(fake_y, training=True)
            # Cycle (Zebra to fake horse to fake zebra) y -> x -> y
            cycled_y = self.gen_G(fake_x, training=True)

            # Identity mapping
            same_x = self.gen_F(real_x, training=True)
            same_y = self.gen_G(real_y, training=True)

            # Discriminator output
            disc_real_x = self.disc_X(real_x, training=True)
            disc_fake_x = self.disc_X(fake_x, training=True)

            disc_real_y = self.disc_Y(real_y, training=True)
            disc_fake_y = self.disc_Y(fake_y, training=True)

            # Generator adverserial loss
            gen_G_loss = self.generator_loss_fn(disc_fake_y)
            gen_F_loss = self.generator_loss_fn(disc_fake_x)

            # Generator cycle loss
            cycle_loss_G = self.cycle_loss_fn(real_y, cycled_y) * self.lambda_cycle
            cycle_loss_F = self.cycle_loss_fn(real_x, cycled_x) * self.lambda_cycle

            # Generator identity loss
            id_loss_G = (
                self.identity_loss_fn(real_y, same_y) * self.lambda_cycle * self.lambda_identity
            )
            id_loss_F = (
                self.identity_loss_fn(real_x, same_x) * self.lambda_cycle * self.lambda_identity
            )

            # Total generator loss
            total_loss_G = gen_G_loss + cycle_loss_G + id_loss_G
            total_loss_F = gen_F_loss + cycle_loss_F + id_loss_F

            # Discriminator loss
            disc_X_loss = self.discriminator_loss_fn(disc_real_x, disc_fake_x)
            disc_Y_loss = self.discriminator_loss_fn(disc_real_y, disc_fake_y)

        # Get the gradients for the generators
        grads_G = tape.gradient(total_loss_G, self.gen_G.trainable_variables)
        grads_F = tape.gradient(total_loss_F, self.gen_F.trainable_variables)

        # Get the gradients for the discriminators
        disc_X_grads = tape.gradient(disc_X_loss, self.disc_X.trainable_variables)
        disc_Y_grads = tape.gradient(disc_Y_loss, self.disc_Y.trainable_variables)

        # Update the weights of the generators
        self.gen_G_optimizer.apply_gradients(zip(grads_G, self.gen_G.trainable_variables))
        self.gen_F_optimizer.apply_gradients(zip(grads_F, self.gen_F.trainable_variables))

        # Update the weights of the discriminators
        self.disc_X_optimizer.apply_gradients(zip(disc_X_grads, self.disc_X.trainable_variables))
        self.disc_Y_optimizer.apply_gradients(zip(disc_Y_grads, self.disc_Y.trainable_variables))

        return {
            "G_loss": total_loss_G,
            "F_loss": total_loss_F,
            "D_X_loss": disc_X_loss,
            "D_Y_loss": disc_Y_loss,
        }


# Loss function for evaluating adversarial loss
adv_loss_fn = keras.losses.MeanSquaredError()


# Define the loss function for the generators
def generator_loss_fn(fake):
    fake_loss = adv_loss_fn(tf.ones_like(fake), fake)
    return fake_loss


# Define the loss function for the discriminators
def discriminator_loss_fn(real, fake):
    real_loss = adv_loss_fn(tf.ones_like(real), real)
    fake_loss = adv_loss_fn(tf.zeros_like(fake), fake)
    return (real_loss + fake_loss) * 0.5


def cyclegan_model(policy: str) -> keras.Model:
    """The published builders at 16x16x3: generator filters 64 -> 4, 2 -> 1 down- and upsampling
    blocks, 9 -> 1 residual blocks; discriminator filters 64 -> 4 (its three downsampling blocks
    are hard-coded: 4-8-16-32 filters, 16x16 -> 2x2 patches). Compiled as published."""
    # kernel_init and gamma_init are module-level and unseeded as published: Keras 3 then draws
    # their integer seed from Python's `random` once, when the module is imported. Drawn again
    # here (the same way), so that keras.utils.set_random_seed makes the weights reproducible.
    for initializer in (kernel_init, gamma_init):
        initializer.seed = random.randint(1, int(1e9))
    with _scope(policy):
        gen_G = get_resnet_generator(
            filters=4, num_downsampling_blocks=1, num_residual_blocks=1,
            num_upsample_blocks=1, name="generator_G",
        )  # fmt: skip
        gen_F = get_resnet_generator(
            filters=4, num_downsampling_blocks=1, num_residual_blocks=1,
            num_upsample_blocks=1, name="generator_F",
        )  # fmt: skip
        disc_X = get_discriminator(filters=4, name="discriminator_X")
        disc_Y = get_discriminator(filters=4, name="discriminator_Y")
        cycle_gan_model = CycleGan(
            generator_G=gen_G, generator_F=gen_F, discriminator_X=disc_X, discriminator_Y=disc_Y
        )
        cycle_gan_model.compile(
            gen_G_optimizer=keras.optimizers.Adam(learning_rate=2e-4, beta_1=0.5),
            gen_F_optimizer=keras.optimizers.Adam(learning_rate=2e-4, beta_1=0.5),
            disc_X_optimizer=keras.optimizers.Adam(learning_rate=2e-4, beta_1=0.5),
            disc_Y_optimizer=keras.optimizers.Adam(learning_rate=2e-4, beta_1=0.5),
            gen_loss_fn=generator_loss_fn,
            disc_loss_fn=discriminator_loss_fn,
        )
    return cycle_gan_model


def cyclegan_batch() -> tuple:
    """(real_x, real_y): batch_size 1 -> 4 images each in [-1, 1], as normalize_img gives."""
    rng = np.random.default_rng(0)
    return tuple(rng.uniform(-1, 1, (4, *input_img_size)).astype("float32") for _ in range(2))


# --- 3. keras-io: generative/wgan_gp.py ---------------------------------------------------------
# `from tensorflow import keras` -> Keras 3. The generator and discriminator are the published
# ones with fewer filters and at 12x12x1 (28x28x1 there): the critic zero-pads to 16x16 (32x32
# there) and has its four strided conv_blocks; the generator goes Dense -> 2x2 -> three
# upsample_blocks -> 16x16 -> Cropping2D((2, 2)) -> 12x12 (4x4 -> 32x32 -> 28x28 there).

IMG_SHAPE = (12, 12, 1)
noise_dim = 8  # 128 there


def conv_block(
    x,
    filters,
    activation,
    kernel_size=(3, 3),
    strides=(1, 1),
    padding="same",
    use_bias=True,
    use_bn=False,
    use_dropout=False,
    drop_value=0.5,
):
    x = layers.Conv2D(filters, kernel_size, strides=strides, padding=padding, use_bias=use_bias)(x)
    if use_bn:
        x = layers.BatchNormalization()(x)
    x = activation(x)
    if use_dropout:
        x = layers.Dropout(drop_value)(x)
    return x


def get_discriminator_model():
    img_input = layers.Input(shape=IMG_SHAPE)
    x = layers.ZeroPadding2D((2, 2))(img_input)
    for filters, use_dropout in ((4, False), (8, True), (8, True), (8, False)):  # 64-128-256-512
        x = conv_block(
            x,
            filters,
            kernel_size=(5, 5),
            strides=(2, 2),
            use_bn=False,
            use_bias=True,
            activation=layers.LeakyReLU(0.2),
            use_dropout=use_dropout,
            drop_value=0.3,
        )
    x = layers.Flatten()(x)
    x = layers.Dropout(0.2)(x)
    x = layers.Dense(1)(x)

    d_model = keras.models.Model(img_input, x, name="discriminator")
    return d_model


def upsample_block(
    x,
    filters,
    activation,
    kernel_size=(3, 3),
    strides=(1, 1),
    up_size=(2, 2),
    padding="same",
    use_bn=False,
    use_bias=True,
    use_dropout=False,
    drop_value=0.3,
):
    x = layers.UpSampling2D(up_size)(x)
    x = layers.Conv2D(filters, kernel_size, strides=strides, padding=padding, use_bias=use_bias)(x)

    if use_bn:
        x = layers.BatchNormalization()(x)

    if activation:
        x = activation(x)
    if use_dropout:
        x = layers.Dropout(drop_value)(x)
    return x


def get_generator_model():
    noise = layers.Input(shape=(noise_dim,))
    x = layers.Dense(2 * 2 * 8, use_bias=False)(noise)  # 4 * 4 * 256 there
    x = layers.BatchNormalization()(x)
    x = layers.LeakyReLU(0.2)(x)

    x = layers.Reshape((2, 2, 8))(x)
    x = upsample_block(
        x,
        8,  # 128
        layers.LeakyReLU(0.2),
        strides=(1, 1),
        use_bias=False,
        use_bn=True,
        padding="same",
        use_dropout=False,
    )
    x = upsample_block(
        x,
        4,  # 64
        layers.LeakyReLU(0.2),
        strides=(1, 1),
        use_bias=False,
        use_bn=True,
        padding="same",
        use_dropout=False,
    )
    x = upsample_block(x, 1, layers.Activation("tanh"), strides=(1, 1), use_bias=False, use_bn=True)
    x = layers.Cropping2D((2, 2))(x)

    g_model = keras.models.Model(noise, x, name="generator")
    return g_model


class WGAN(keras.Model):
    def __init__(
        self,
        discriminator,
        generator,
        latent_dim,
        discriminator_extra_steps=3,
        gp_weight=10.0,
    ):
        super(WGAN, self).__init__()
        self.discriminator = discriminator
        self.generator = generator
        self.latent_dim = latent_dim
        self.d_steps = discriminator_extra_steps
        self.gp_weight = gp_weight

    def compile(self, d_optimizer, g_optimizer, d_loss_fn, g_loss_fn):
        super(WGAN, self).compile()
        self.d_optimizer = d_optimizer
        self.g_optimizer = g_optimizer
        self.d_loss_fn = d_loss_fn
        self.g_loss_fn = g_loss_fn

    def gradient_penalty(self, batch_size, real_images, fake_images):
        """Calculates the gradient penalty.

        This loss is calculated on an interpolated image
        and added to the discriminator loss.
        """
        # Get the interpolated image
        alpha = tf.random.normal([batch_size, 1, 1, 1], 0.0, 1.0)
        diff = fake_images - real_images
        interpolated = real_images + alpha * diff

        with tf.GradientTape() as gp_tape:
            gp_tape.watch(interpolated)
            # 1. Get the discriminator output for this interpolated image.
            pred = self.discriminator(interpolated, training=True)

        # 2. Calculate the gradients w.r.t to this interpolated image.
        grads = gp_tape.gradient(pred, [interpolated])[0]
        # 3. Calculate the norm of the gradients.
        norm = tf.sqrt(tf.reduce_sum(tf.square(grads), axis=[1, 2, 3]))
        gp = tf.reduce_mean((norm - 1.0) ** 2)
        return gp

    def train_step(self, real_images):
        if isinstance(real_images, tuple):
            real_images = real_images[0]

        # Get the batch size
        batch_size = tf.shape(real_images)[0]

        # For each batch, we are going to perform the
        # following steps as laid out in the original paper:
        # 1. Train the generator and get the generator loss
        # 2. Train the discriminator and get the discriminator loss
        # 3. Calculate the gradient penalty
        # 4. Multiply this gradient penalty with a constant weight factor
        # 5. Add the gradient penalty to the discriminator loss
        # 6. Return the generator and discriminator losses as a loss dictionary

        # Train the discriminator first. The original paper recommends training
        # the discriminator for `x` more steps (typically 5) as compared to
        # one step of the generator. Here we will train it for 3 extra steps
        # as compared to 5 to reduce the training time.
        for i in range(self.d_steps):
            # Get the latent vector
            random_latent_vectors = tf.random.normal(shape=(batch_size, self.latent_dim))
            with tf.GradientTape() as tape:
                # Generate fake images from the latent vector
                fake_images = self.generator(random_latent_vectors, training=True)
                # Get the logits for the fake images
                fake_logits = self.discriminator(fake_images, training=True)
                # Get the logits for the real images
                real_logits = self.discriminator(real_images, training=True)

                # Calculate the discriminator loss using the fake and real image logits
                d_cost = self.d_loss_fn(real_img=real_logits, fake_img=fake_logits)
                # Calculate the gradient penalty
                gp = self.gradient_penalty(batch_size, real_images, fake_images)
                # Add the gradient penalty to the original discriminator loss
                d_loss = d_cost + gp * self.gp_weight

            # Get the gradients w.r.t the discriminator loss
            d_gradient = tape.gradient(d_loss, self.discriminator.trainable_variables)
            # Update the weights of the discriminator using the discriminator optimizer
            self.d_optimizer.apply_gradients(
                zip(d_gradient, self.discriminator.trainable_variables)
            )

        # Train the generator
        # Get the latent vector
        random_latent_vectors = tf.random.normal(shape=(batch_size, self.latent_dim))
        with tf.GradientTape() as tape:
            # Generate fake images using the generator
            generated_images = self.generator(random_latent_vectors, training=True)
            # Get the discriminator logits for fake images
            gen_img_logits = self.discriminator(generated_images, training=True)
            # Calculate the generator loss
            g_loss = self.g_loss_fn(gen_img_logits)

        # Get the gradients w.r.t the generator loss
        gen_gradient = tape.gradient(g_loss, self.generator.trainable_variables)
        # Update the weights of the generator using the generator optimizer
        self.g_optimizer.apply_gradients(zip(gen_gradient, self.generator.trainable_variables))
        return {"d_loss": d_loss, "g_loss": g_loss}


def discriminator_loss(real_img, fake_img):
    real_loss = tf.reduce_mean(real_img)
    fake_loss = tf.reduce_mean(fake_img)
    return fake_loss - real_loss


def generator_loss(fake_img):
    return -tf.reduce_mean(fake_img)


def wgan_gp_model(policy: str) -> keras.Model:
    with _scope(policy):
        generator_optimizer = keras.optimizers.Adam(learning_rate=0.0002, beta_1=0.5, beta_2=0.9)
        discriminator_optimizer = keras.optimizers.Adam(
            learning_rate=0.0002, beta_1=0.5, beta_2=0.9
        )
        wgan = WGAN(
            discriminator=get_discriminator_model(),
            generator=get_generator_model(),
            latent_dim=noise_dim,
            discriminator_extra_steps=3,
        )
        wgan.compile(
            d_optimizer=discriminator_optimizer,
            g_optimizer=generator_optimizer,
            g_loss_fn=generator_loss,
            d_loss_fn=discriminator_loss,
        )
    return wgan


def wgan_gp_batch() -> np.ndarray:
    """wgan.fit(train_images): images in [-1, 1], BATCH_SIZE 512 -> 8."""
    return np.random.default_rng(0).uniform(-1, 1, (8, *IMG_SHAPE)).astype("float32")


# --- 4. keras-io: generative/dcgan_overriding_train_step.py ---------------------------------------
# (a) cca4efba (tf.keras): tf.concat([generated_images, real_images], axis=0).
# (b) the Keras 3 version: ops.concatenate([...]) and keras.random with a SeedGenerator.
# `from tensorflow import keras` -> Keras 3 for (a). Both at 16x16x3 (64x64x3 there), latent_dim
# 128 -> 8, filters 64/128/128 -> 4/8/8 (discriminator) and 128/256/512 -> 8/8/8 (generator);
# LeakyReLU(alpha=0.2) as published in (a) (Keras 3 still takes `alpha`), negative_slope in (b).

latent_dim_dcgan = 8


class GAN(keras.Model):
    def __init__(self, discriminator, generator, latent_dim):
        super(GAN, self).__init__()
        self.discriminator = discriminator
        self.generator = generator
        self.latent_dim = latent_dim

    def compile(self, d_optimizer, g_optimizer, loss_fn):
        super(GAN, self).compile()
        self.d_optimizer = d_optimizer
        self.g_optimizer = g_optimizer
        self.loss_fn = loss_fn
        self.d_loss_metric = keras.metrics.Mean(name="d_loss")
        self.g_loss_metric = keras.metrics.Mean(name="g_loss")

    @property
    def metrics(self):
        return [self.d_loss_metric, self.g_loss_metric]

    def train_step(self, real_images):
        # Sample random points in the latent space
        batch_size = tf.shape(real_images)[0]
        random_latent_vectors = tf.random.normal(shape=(batch_size, self.latent_dim))

        # Decode them to fake images
        generated_images = self.generator(random_latent_vectors)

        # Combine them with real images
        combined_images = tf.concat([generated_images, real_images], axis=0)

        # Assemble labels discriminating real from fake images
        labels = tf.concat([tf.ones((batch_size, 1)), tf.zeros((batch_size, 1))], axis=0)
        # Add random noise to the labels - important trick!
        labels += 0.05 * tf.random.uniform(tf.shape(labels))

        # Train the discriminator
        with tf.GradientTape() as tape:
            predictions = self.discriminator(combined_images)
            d_loss = self.loss_fn(labels, predictions)
        grads = tape.gradient(d_loss, self.discriminator.trainable_weights)
        self.d_optimizer.apply_gradients(zip(grads, self.discriminator.trainable_weights))

        # Sample random points in the latent space
        random_latent_vectors = tf.random.normal(shape=(batch_size, self.latent_dim))

        # Assemble labels that say "all real images"
        misleading_labels = tf.zeros((batch_size, 1))

        # Train the generator (note that we should *not* update the weights
        # of the discriminator)!
        with tf.GradientTape() as tape:
            predictions = self.discriminator(self.generator(random_latent_vectors))
            g_loss = self.loss_fn(misleading_labels, predictions)
        grads = tape.gradient(g_loss, self.generator.trainable_weights)
        self.g_optimizer.apply_gradients(zip(grads, self.generator.trainable_weights))

        # Update metrics
        self.d_loss_metric.update_state(d_loss)
        self.g_loss_metric.update_state(g_loss)
        return {
            "d_loss": self.d_loss_metric.result(),
            "g_loss": self.g_loss_metric.result(),
        }


def _dcgan_networks(leaky):
    discriminator = keras.Sequential(
        [
            keras.Input(shape=(16, 16, 3)),
            layers.Conv2D(4, kernel_size=4, strides=2, padding="same"),
            leaky(),
            layers.Conv2D(8, kernel_size=4, strides=2, padding="same"),
            leaky(),
            layers.Conv2D(8, kernel_size=4, strides=2, padding="same"),
            leaky(),
            layers.Flatten(),
            layers.Dropout(0.2),
            layers.Dense(1, activation="sigmoid"),
        ],
        name="discriminator",
    )
    generator = keras.Sequential(
        [
            keras.Input(shape=(latent_dim_dcgan,)),
            layers.Dense(2 * 2 * 8),  # 8 * 8 * 128 there
            layers.Reshape((2, 2, 8)),
            layers.Conv2DTranspose(8, kernel_size=4, strides=2, padding="same"),
            leaky(),
            layers.Conv2DTranspose(8, kernel_size=4, strides=2, padding="same"),
            leaky(),
            layers.Conv2DTranspose(8, kernel_size=4, strides=2, padding="same"),
            leaky(),
            layers.Conv2D(3, kernel_size=5, padding="same", activation="sigmoid"),
        ],
        name="generator",
    )
    return discriminator, generator


def _dcgan(policy, gan_class, leaky):
    with _scope(policy):
        discriminator, generator = _dcgan_networks(leaky)
        gan = gan_class(
            discriminator=discriminator, generator=generator, latent_dim=latent_dim_dcgan
        )
        gan.compile(
            d_optimizer=keras.optimizers.Adam(learning_rate=0.0001),
            g_optimizer=keras.optimizers.Adam(learning_rate=0.0001),
            loss_fn=keras.losses.BinaryCrossentropy(),
        )
    return gan


def dcgan_model(policy: str) -> keras.Model:
    return _dcgan(policy, GAN, lambda: layers.LeakyReLU(alpha=0.2))


def dcgan_batch() -> np.ndarray:
    """The dataset yields image batches only (label_mode=None), rescaled to [0, 1]."""
    return np.random.default_rng(0).uniform(0, 1, (4, 16, 16, 3)).astype("float32")


# --- 5. keras-io: generative/ddim.py --------------------------------------------------------------
# Everything of the example that its train_step needs, as published, inside one function so that
# its module-level hyperparameters (batch_size, image_size, ...) stay its own: image_size 64 -> 8,
# widths [32, 64, 96, 128] -> [4, 8], block_depth 2 -> 1, embedding_dims 32 -> 4, batch_size
# 64 -> 4. Changes: keras.optimizers.experimental.AdamW -> keras.optimizers.AdamW (Keras 3 has
# no `experimental`); the KID metric (a pretrained InceptionV3, used only in test_step) is left
# out, so compile's `self.kid` and `metrics` omit it; normalizer.adapt runs on the batch instead of
# the dataset. Published as it is, the network cannot even be built under a mixed policy (the
# Lambda of the sinusoidal embedding multiplies float32 angular speeds by its float16 input), so
# `ddim_f32_embedding_normalizer_model` gives that Lambda dtype="float32", as a learner fixing
# the build would, and the normalizer too (its float16 output is what the float32 signal_rates
# would meet first), so that the training step reaches denoise's `noise_rates * pred_noises`.


def _ddim_source(embedding_layer_dtype=None, normalizer_dtype=None):
    image_size = 8
    min_signal_rate = 0.02
    max_signal_rate = 0.95
    embedding_dims = 4
    embedding_max_frequency = 1000.0
    batch_size = 4
    ema = 0.999

    # Keras 3: clone_model re-creates the Lambda from its config, which finds the function only
    # when it is registered (as the Keras 3 port of this example does).
    @keras.saving.register_keras_serializable(
        package=f"ddim_{embedding_layer_dtype}_{normalizer_dtype}"
    )
    def sinusoidal_embedding(x):
        embedding_min_frequency = 1.0
        frequencies = tf.exp(
            tf.linspace(
                tf.math.log(embedding_min_frequency),
                tf.math.log(embedding_max_frequency),
                embedding_dims // 2,
            )
        )
        angular_speeds = 2.0 * math.pi * frequencies
        embeddings = tf.concat([tf.sin(angular_speeds * x), tf.cos(angular_speeds * x)], axis=3)
        return embeddings

    def ResidualBlock(width):  # noqa: N802
        def apply(x):
            input_width = x.shape[3]
            if input_width == width:
                residual = x
            else:
                residual = layers.Conv2D(width, kernel_size=1)(x)
            x = layers.BatchNormalization(center=False, scale=False)(x)
            x = layers.Conv2D(
                width, kernel_size=3, padding="same", activation=keras.activations.swish
            )(x)
            x = layers.Conv2D(width, kernel_size=3, padding="same")(x)
            x = layers.Add()([x, residual])
            return x

        return apply

    def DownBlock(width, block_depth):  # noqa: N802
        def apply(x):
            x, skips = x
            for _ in range(block_depth):
                x = ResidualBlock(width)(x)
                skips.append(x)
            x = layers.AveragePooling2D(pool_size=2)(x)
            return x

        return apply

    def UpBlock(width, block_depth):  # noqa: N802
        def apply(x):
            x, skips = x
            x = layers.UpSampling2D(size=2, interpolation="bilinear")(x)
            for _ in range(block_depth):
                x = layers.Concatenate()([x, skips.pop()])
                x = ResidualBlock(width)(x)
            return x

        return apply

    def get_network(image_size, widths, block_depth):
        noisy_images = keras.Input(shape=(image_size, image_size, 3))
        noise_variances = keras.Input(shape=(1, 1, 1))

        e = layers.Lambda(sinusoidal_embedding, dtype=embedding_layer_dtype)(noise_variances)
        e = layers.UpSampling2D(size=image_size, interpolation="nearest")(e)

        x = layers.Conv2D(widths[0], kernel_size=1)(noisy_images)
        x = layers.Concatenate()([x, e])

        skips = []
        for width in widths[:-1]:
            x = DownBlock(width, block_depth)([x, skips])

        for _ in range(block_depth):
            x = ResidualBlock(widths[-1])(x)

        for width in reversed(widths[:-1]):
            x = UpBlock(width, block_depth)([x, skips])

        x = layers.Conv2D(3, kernel_size=1, kernel_initializer="zeros")(x)

        return keras.Model([noisy_images, noise_variances], x, name="residual_unet")

    class DiffusionModel(keras.Model):
        def __init__(self, image_size, widths, block_depth):
            super().__init__()

            self.normalizer = layers.Normalization(dtype=normalizer_dtype)
            self.network = get_network(image_size, widths, block_depth)
            self.ema_network = keras.models.clone_model(self.network)

        def compile(self, **kwargs):
            super().compile(**kwargs)

            self.noise_loss_tracker = keras.metrics.Mean(name="n_loss")
            self.image_loss_tracker = keras.metrics.Mean(name="i_loss")

        @property
        def metrics(self):
            return [self.noise_loss_tracker, self.image_loss_tracker]

        def diffusion_schedule(self, diffusion_times):
            # diffusion times -> angles
            start_angle = tf.acos(max_signal_rate)
            end_angle = tf.acos(min_signal_rate)

            diffusion_angles = start_angle + diffusion_times * (end_angle - start_angle)

            # angles -> signal and noise rates
            signal_rates = tf.cos(diffusion_angles)
            noise_rates = tf.sin(diffusion_angles)
            # note that their squared sum is always: sin^2(x) + cos^2(x) = 1

            return noise_rates, signal_rates

        def denoise(self, noisy_images, noise_rates, signal_rates, training):
            # the exponential moving average weights are used at evaluation
            if training:
                network = self.network
            else:
                network = self.ema_network

            # predict noise component and calculate the image component using it
            pred_noises = network([noisy_images, noise_rates**2], training=training)
            pred_images = (noisy_images - noise_rates * pred_noises) / signal_rates

            return pred_noises, pred_images

        def train_step(self, images):
            # normalize images to have standard deviation of 1, like the noises
            images = self.normalizer(images, training=True)
            noises = tf.random.normal(shape=(batch_size, image_size, image_size, 3))

            # sample uniform random diffusion times
            diffusion_times = tf.random.uniform(shape=(batch_size, 1, 1, 1), minval=0.0, maxval=1.0)
            noise_rates, signal_rates = self.diffusion_schedule(diffusion_times)
            # mix the images with noises accordingly
            noisy_images = signal_rates * images + noise_rates * noises

            with tf.GradientTape() as tape:
                # train the network to separate noisy images to their components
                pred_noises, pred_images = self.denoise(
                    noisy_images, noise_rates, signal_rates, training=True
                )

                noise_loss = self.loss(noises, pred_noises)  # used for training
                image_loss = self.loss(images, pred_images)  # only used as metric

            gradients = tape.gradient(noise_loss, self.network.trainable_weights)
            self.optimizer.apply_gradients(zip(gradients, self.network.trainable_weights))

            self.noise_loss_tracker.update_state(noise_loss)
            self.image_loss_tracker.update_state(image_loss)

            # track the exponential moving averages of weights
            for weight, ema_weight in zip(self.network.weights, self.ema_network.weights):
                ema_weight.assign(ema * ema_weight + (1 - ema) * weight)

            # KID is not measured during the training phase for computational efficiency
            return {m.name: m.result() for m in self.metrics[:-1]}

    def build(policy):
        with _scope(policy):
            model = DiffusionModel(image_size, [4, 8], 1)
            model.compile(
                optimizer=keras.optimizers.AdamW(learning_rate=1e-3, weight_decay=1e-4),
                loss=keras.losses.mean_absolute_error,
            )
            model.normalizer.adapt(ddim_batch())
        return model

    return build


def ddim_f32_embedding_normalizer_model(policy: str) -> keras.Model:
    return _ddim_source(embedding_layer_dtype="float32", normalizer_dtype="float32")(policy)


def ddim_batch() -> np.ndarray:
    """Images in [0, 1] (preprocess_image), batch_size 4 (drop_remainder=True: always 4)."""
    return np.random.default_rng(0).uniform(0, 1, (4, 8, 8, 3)).astype("float32")


# --- 6. keras-io: generative/pixelcnn.py ----------------------------------------------------------
# `from tensorflow import keras` -> Keras 3; `self.conv.kernel.get_shape()` -> `.shape` (a Keras 3
# variable has no get_shape).


class PixelConvLayer(layers.Layer):
    def __init__(self, mask_type, **kwargs):
        super(PixelConvLayer, self).__init__()
        self.mask_type = mask_type
        self.conv = layers.Conv2D(**kwargs)

    def build(self, input_shape):
        # Build the conv2d layer to initialize kernel variables
        self.conv.build(input_shape)
        # Use the initialized kernel to create the mask
        kernel_shape = self.conv.kernel.shape
        self.mask = np.zeros(shape=kernel_shape)
        self.mask[: kernel_shape[0] // 2, ...] = 1.0
        self.mask[kernel_shape[0] // 2, : kernel_shape[1] // 2, ...] = 1.0
        if self.mask_type == "B":
            self.mask[kernel_shape[0] // 2, kernel_shape[1] // 2, ...] = 1.0

    def call(self, inputs):
        self.conv.kernel.assign(self.conv.kernel * self.mask)
        return self.conv(inputs)


class ResidualBlock(keras.layers.Layer):
    def __init__(self, filters, **kwargs):
        super(ResidualBlock, self).__init__(**kwargs)
        self.conv1 = keras.layers.Conv2D(filters=filters, kernel_size=1, activation="relu")
        self.pixel_conv = PixelConvLayer(
            mask_type="B",
            filters=filters // 2,
            kernel_size=3,
            activation="relu",
            padding="same",
        )
        self.conv2 = keras.layers.Conv2D(filters=filters, kernel_size=1, activation="relu")

    def call(self, inputs):
        x = self.conv1(inputs)
        x = self.pixel_conv(x)
        x = self.conv2(x)
        return keras.layers.add([inputs, x])


def pixelcnn_model(policy: str) -> keras.Model:
    """28x28x1 -> 8x8x1, filters 128 -> 8, n_residual_blocks 5 -> 1; compiled as published."""
    with _scope(policy):
        inputs = keras.Input(shape=(8, 8, 1))
        x = PixelConvLayer(
            mask_type="A", filters=8, kernel_size=7, activation="relu", padding="same"
        )(inputs)
        for _ in range(1):
            x = ResidualBlock(filters=8)(x)
        for _ in range(2):
            x = PixelConvLayer(
                mask_type="B", filters=8, kernel_size=1, strides=1, activation="relu",
                padding="valid",
            )(x)  # fmt: skip
        out = keras.layers.Conv2D(
            filters=1, kernel_size=1, strides=1, activation="sigmoid", padding="valid"
        )(x)
        pixel_cnn = keras.Model(inputs, out)
        adam = keras.optimizers.Adam(learning_rate=0.0005)
        pixel_cnn.compile(optimizer=adam, loss="binary_crossentropy")
    return pixel_cnn


def pixelcnn_batch() -> tuple:
    """fit(x=data, y=data): binarised digits (0 or 1), batch_size 128 -> 8."""
    data = (np.random.default_rng(0).uniform(0, 1, (8, 8, 8, 1)) > 0.67).astype("float32")
    return data, data


# --- 8. keras-io: vision/cait.py: LayerScale ------------------------------------------------------
# LayerScale, StochasticDepth, TalkingHeadAttention and mlp as published. The example only loads
# a pretrained CaiT and never trains it, so the classifier is ours: CaiT's patch projection
# (Conv2D + Reshape, patch 4 on 8x8x3 -> 4 patches, projection_dim 8; CaiT's pos_embed, zeros at
# initialisation, left out), one
# LayerScaleBlock (its body inline, so that LayerScale's outputs are outputs of the model's own
# layers), the head norm, average pooling, Dense(10); Adam and sparse categorical cross-entropy
# through the standard fit train_step. init_values 1e-5 is get_config's default (cait_xxs24);
# the paper and cait.py's docs also give 1e-6 for deeper models.


class LayerScale(layers.Layer):
    """LayerScale as introduced in CaiT: https://arxiv.org/abs/2103.17239.

    Args:
        init_values (float): value to initialize the diagonal matrix of LayerScale.
        projection_dim (int): projection dimension used in LayerScale.
    """

    def __init__(self, init_values: float, projection_dim: int, **kwargs):
        super().__init__(**kwargs)
        self.gamma = self.add_weight(
            shape=(projection_dim,),
            initializer=keras.initializers.Constant(init_values),
        )

    def call(self, x, training=False):
        return x * self.gamma


class StochasticDepthCaiT(layers.Layer):
    """Stochastic Depth layer (https://arxiv.org/abs/1603.09382) of cait.py (renamed here only)."""

    def __init__(self, drop_prob: float, **kwargs):
        super().__init__(**kwargs)
        self.drop_prob = drop_prob
        self.seed_generator = keras.random.SeedGenerator(1337)

    def call(self, x, training=False):
        if training:
            keep_prob = 1 - self.drop_prob
            shape = (ops.shape(x)[0],) + (1,) * (len(x.shape) - 1)
            random_tensor = keep_prob + ops.random.uniform(
                shape, minval=0, maxval=1, seed=self.seed_generator
            )
            random_tensor = ops.floor(random_tensor)
            return (x / keep_prob) * random_tensor
        return x


class TalkingHeadAttention(layers.Layer):
    """Talking-head attention as proposed in CaiT: https://arxiv.org/abs/2003.02436."""

    def __init__(self, projection_dim: int, num_heads: int, dropout_rate: float, **kwargs):
        super().__init__(**kwargs)

        self.num_heads = num_heads

        head_dim = projection_dim // self.num_heads

        self.scale = head_dim**-0.5

        self.qkv = layers.Dense(projection_dim * 3)
        self.attn_drop = layers.Dropout(dropout_rate)

        self.proj = layers.Dense(projection_dim)

        self.proj_l = layers.Dense(self.num_heads)
        self.proj_w = layers.Dense(self.num_heads)

        self.proj_drop = layers.Dropout(dropout_rate)

    def call(self, x, training=False):
        B, N, C = ops.shape(x)[0], ops.shape(x)[1], ops.shape(x)[2]

        # Project the inputs all at once.
        qkv = self.qkv(x)

        # Reshape the projected output so that they're segregated in terms of
        # query, key, and value projections.
        qkv = ops.reshape(qkv, (B, N, 3, self.num_heads, C // self.num_heads))

        # Transpose so that the `num_heads` becomes the leading dimensions.
        # Helps to better segregate the representation sub-spaces.
        qkv = ops.transpose(qkv, axes=[2, 0, 3, 1, 4])
        scale = ops.cast(self.scale, dtype=qkv.dtype)
        q, k, v = qkv[0] * scale, qkv[1], qkv[2]

        # Obtain the raw attention scores.
        attn = ops.matmul(q, ops.transpose(k, axes=[0, 1, 3, 2]))

        # Linear projection of the similarities between the query and key projections.
        attn = self.proj_l(ops.transpose(attn, axes=[0, 2, 3, 1]))

        # Normalize the attention scores.
        attn = ops.transpose(attn, axes=[0, 3, 1, 2])
        attn = ops.nn.softmax(attn, axis=-1)

        # Linear projection on the softmaxed scores.
        attn = self.proj_w(ops.transpose(attn, axes=[0, 2, 3, 1]))
        attn = ops.transpose(attn, axes=[0, 3, 1, 2])
        attn = self.attn_drop(attn, training=training)

        # Final set of projections as done in the vanilla attention mechanism.
        x = ops.matmul(attn, v)
        x = ops.transpose(x, axes=[0, 2, 1, 3])
        x = ops.reshape(x, (B, N, C))

        x = self.proj(x)
        x = self.proj_drop(x, training=training)

        return x, attn


def mlp(x, dropout_rate: float, hidden_units: typing.List[int]):  # noqa: UP006
    """FFN for a Transformer block."""
    for idx, units in enumerate(hidden_units):
        x = layers.Dense(
            units,
            activation=ops.nn.gelu if idx == 0 else None,
            bias_initializer=keras.initializers.RandomNormal(stddev=1e-6),
        )(x)
        x = layers.Dropout(dropout_rate)(x)
    return x


def _layer_scale_block(encoded_patches, projection_dim, num_heads, layer_norm_eps, init_values,
                       mlp_units, dropout_rate, sd_prob):  # fmt: skip
    """The body of cait.py's LayerScaleBlock, on a tensor instead of its own keras.Input."""
    # Self-attention.
    x1 = layers.LayerNormalization(epsilon=layer_norm_eps)(encoded_patches)
    attn_output, attn_scores = TalkingHeadAttention(projection_dim, num_heads, dropout_rate)(x1)
    attn_output = (
        LayerScale(init_values, projection_dim)(attn_output) if init_values else attn_output
    )
    attn_output = StochasticDepthCaiT(sd_prob)(attn_output) if sd_prob else attn_output
    x2 = layers.Add()([encoded_patches, attn_output])

    # FFN.
    x3 = layers.LayerNormalization(epsilon=layer_norm_eps)(x2)
    x4 = mlp(x3, hidden_units=mlp_units, dropout_rate=dropout_rate)
    x4 = LayerScale(init_values, projection_dim)(x4) if init_values else x4
    x4 = StochasticDepthCaiT(sd_prob)(x4) if sd_prob else x4
    outputs = layers.Add()([x2, x4])
    return outputs, attn_scores


def _cait_classifier(policy, init_values):
    projection_dim, patch_size = 8, 4
    with _scope(policy):
        inputs = keras.Input((8, 8, 3))
        x = layers.Conv2D(
            filters=projection_dim, kernel_size=(patch_size, patch_size),
            strides=(patch_size, patch_size), padding="VALID", name="conv_projection",
            kernel_initializer="lecun_normal",
        )(inputs)  # fmt: skip
        x = layers.Reshape(target_shape=(-1, projection_dim), name="flatten_projection")(x)
        x, _ = _layer_scale_block(
            x, projection_dim=projection_dim, num_heads=2, layer_norm_eps=1e-6,
            init_values=init_values, mlp_units=[projection_dim * 4, projection_dim],
            dropout_rate=0.0, sd_prob=0.0,
        )  # fmt: skip
        x = layers.LayerNormalization(epsilon=1e-6, name="head_norm")(x)
        x = layers.GlobalAveragePooling1D()(x)
        outputs = layers.Dense(10, name="classification_head")(x)
        model = keras.Model(inputs, outputs)
        model.compile(
            optimizer=keras.optimizers.Adam(1e-3),
            loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        )
    return model


def cait_layerscale_1e6_model(policy: str) -> keras.Model:
    return _cait_classifier(policy, 1e-6)


def cait_layerscale_batch() -> tuple:
    rng = np.random.default_rng(0)
    return rng.uniform(0, 1, (8, 8, 8, 3)).astype("float32"), np.arange(8) % 10
